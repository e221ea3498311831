import { createHmac } from 'node:crypto';

/**
 * An S3 "POST policy" (browser-based upload with a form POST), signed with Signature V4. S3 checks
 * the policy itself, so the size limit holds before any byte is stored. The AWS SDK v3 keeps this
 * in a separate package; signing is a few HMACs, written out here.
 */
export interface PostPolicyInput {
  bucket: string;
  key: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  maxBytes: number;
  expiresAt: Date;
  now?: Date;
}

const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

export function signPostPolicy(input: PostPolicyInput): Record<string, string> {
  const now = input.now ?? new Date();
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const credential = `${input.credentials.accessKeyId}/${day}/${input.region}/s3/aws4_request`;
  const signed: Record<string, string> = {
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': credential,
    'X-Amz-Date': amzDate,
    ...(input.credentials.sessionToken ? { 'X-Amz-Security-Token': input.credentials.sessionToken } : {}),
  };
  const policy = {
    expiration: input.expiresAt.toISOString(),
    conditions: [
      { bucket: input.bucket },
      ['eq', '$key', input.key],
      ['content-length-range', 1, input.maxBytes],
      ...Object.entries(signed).map(([name, value]) => ({ [name.toLowerCase()]: value })),
    ],
  };
  const encodedPolicy = Buffer.from(JSON.stringify(policy)).toString('base64');
  const signingKey = ['s3', 'aws4_request'].reduce(
    (key, part) => hmac(key, part),
    hmac(hmac(`AWS4${input.credentials.secretAccessKey}`, day), input.region),
  );
  return {
    key: input.key,
    ...signed,
    Policy: encodedPolicy,
    'X-Amz-Signature': hmac(signingKey, encodedPolicy).toString('hex'),
  };
}
