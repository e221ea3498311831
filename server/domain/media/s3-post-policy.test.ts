import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPostPolicy } from './s3-post-policy.js';

describe('signPostPolicy', () => {
  const input = {
    bucket: 'marquee-media',
    key: 'incoming/0b8f6f4e-1f7a-4c43-9a57-3c1c2f3b9c10',
    region: 'eu-west-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
    maxBytes: 52_428_800,
    expiresAt: new Date('2030-01-02T03:04:05.000Z'),
    now: new Date('2030-01-01T10:20:30.456Z'),
  };

  it('binds the key, the size limit and the expiry into the signed policy', () => {
    const fields = signPostPolicy(input);
    expect(fields.key).toBe(input.key);
    expect(fields['X-Amz-Date']).toBe('20300101T102030Z');
    expect(fields['X-Amz-Credential']).toBe('AKIDEXAMPLE/20300101/eu-west-1/s3/aws4_request');
    const policy = JSON.parse(Buffer.from(fields.Policy, 'base64').toString('utf8'));
    expect(policy.expiration).toBe('2030-01-02T03:04:05.000Z');
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        { bucket: 'marquee-media' },
        ['eq', '$key', input.key],
        ['content-length-range', 1, 52_428_800],
        { 'x-amz-algorithm': 'AWS4-HMAC-SHA256' },
        { 'x-amz-date': '20300101T102030Z' },
      ]),
    );
  });

  it('signs the policy with the Signature V4 key for the day, region and s3', () => {
    const fields = signPostPolicy(input);
    const step = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();
    const key = step(step(step(step(`AWS4${input.credentials.secretAccessKey}`, '20300101'), 'eu-west-1'), 's3'), 'aws4_request');
    expect(fields['X-Amz-Signature']).toBe(createHmac('sha256', key).update(fields.Policy).digest('hex'));
    expect(signPostPolicy({ ...input, maxBytes: 1 })['X-Amz-Signature']).not.toBe(fields['X-Amz-Signature']);
  });

  it('carries a session token when the credentials have one', () => {
    const fields = signPostPolicy({ ...input, credentials: { ...input.credentials, sessionToken: 'token-1' } });
    expect(fields['X-Amz-Security-Token']).toBe('token-1');
    expect(JSON.parse(Buffer.from(fields.Policy, 'base64').toString()).conditions).toContainEqual({ 'x-amz-security-token': 'token-1' });
  });
});
