import { describe, expect, it } from 'vitest';
import { UploadSigner } from './signatures.js';

describe('UploadSigner', () => {
  const signer = new UploadSigner('a-test-secret-of-some-length');
  const expires = Math.floor(Date.now() / 1000) + 60;
  const signature = signer.sign('put', ['object-1'], expires);

  it('accepts its own signature until it expires', () => {
    expect(signer.verify('put', ['object-1'], String(expires), signature)).toBe('valid');
    expect(signer.verify('put', ['object-1'], String(expires), signature, (expires + 1) * 1000)).toBe('expired');
  });

  it('refuses any change: object, purpose, expiry, signature, or another secret', () => {
    expect(signer.verify('put', ['object-2'], String(expires), signature)).toBe('invalid');
    expect(signer.verify('part', ['object-1'], String(expires), signature)).toBe('invalid');
    expect(signer.verify('put', ['object-1'], String(expires + 1), signature)).toBe('invalid');
    // One character changed (a fixed replacement would leave 1 signature in 64 as it was).
    const tampered = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    expect(tampered).not.toBe(signature);
    expect(signer.verify('put', ['object-1'], String(expires), tampered)).toBe('invalid');
    expect(signer.verify('put', ['object-1'], String(expires), undefined)).toBe('invalid');
    expect(signer.verify('put', ['object-1'], 'soon', signature)).toBe('invalid');
    expect(new UploadSigner('another-secret-entirely').verify('put', ['object-1'], String(expires), signature)).toBe('invalid');
  });

  it('reports a tampered expired link as invalid, not merely expired', () => {
    const past = Math.floor(Date.now() / 1000) - 60;
    expect(signer.verify('put', ['object-1'], String(past), 'forged')).toBe('invalid');
  });
});
