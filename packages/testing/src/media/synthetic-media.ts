/**
 * Synthetic media for tests, written for this project (no recording, no third-party file): a 1×1 PNG and a
 * one-page PDF that says "Synthetic test report". Small on purpose: a request body that carries them stays
 * readable, and each one's base64 text can be counted in it.
 */

/** A 1×1 RGBA PNG (made with zlib, CRCs computed): synthetic. */
export const SYNTHETIC_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGPQyr/4HwAEmwJqO6nyUQAAAABJRU5ErkJggg==';

export const SYNTHETIC_PNG: Uint8Array = Uint8Array.from(Buffer.from(SYNTHETIC_PNG_BASE64, 'base64'));

/** A one-page PDF 1.4 with a valid cross-reference table: synthetic. */
export const SYNTHETIC_PDF: Uint8Array = syntheticPdf('Synthetic test report');

export const SYNTHETIC_PDF_BASE64: string = Buffer.from(SYNTHETIC_PDF).toString('base64');

function syntheticPdf(text: string): Uint8Array {
  const stream = `BT /F1 18 Tf 40 100 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(Buffer.from(body, 'latin1'));
}

/** 10 ms of silence as an 8 kHz, 8-bit mono PCM WAV (RIFF header written here): synthetic. */
export const SYNTHETIC_WAV: Uint8Array = syntheticWav(80);

export const SYNTHETIC_WAV_BASE64: string = Buffer.from(SYNTHETIC_WAV).toString('base64');

function syntheticWav(sampleCount: number): Uint8Array {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + sampleCount, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24); // sample rate
  header.writeUInt32LE(8000, 28); // bytes per second
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(sampleCount, 40);
  return Uint8Array.from(Buffer.concat([header, Buffer.alloc(sampleCount, 128)])); // 128: silence in 8-bit PCM
}
