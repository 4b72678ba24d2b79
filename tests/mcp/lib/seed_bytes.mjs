// Binary seed files the differential corpora share: a real image (so media
// tools see a valid PNG) and reproducible pseudo-random bytes (the same on
// every run, so both sides' trees and results can be compared).

/** A 1x1 PNG. */
export const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** `n` bytes from a linear congruential generator started at `seed`. */
export function bytes(n, seed) {
  const b = Buffer.alloc(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}
