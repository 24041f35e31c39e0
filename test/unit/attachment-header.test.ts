/**
 * The download's Content-Disposition (client/uploads/routes/files.ts): always an attachment, named
 * by the file's last path component, with an ASCII fallback no quote or control character can
 * break out of and the exact name in RFC 5987 form.
 */
import { attachmentHeader } from '../../client/uploads/routes/files';

test('a plain name is used as it is, both ways', () => {
  expect(attachmentHeader('out/report.md')).toBe(`attachment; filename="report.md"; filename*=UTF-8''report.md`);
});

test('a name with non-ASCII letters, spaces and brackets: an ASCII stand-in and the encoded name', () => {
  expect(attachmentHeader('Bericht für Ärzte (1).md')).toBe(
    `attachment; filename="Bericht f_r _rzte _1_.md"; filename*=UTF-8''Bericht%20f%C3%BCr%20%C3%84rzte%20%281%29.md`,
  );
});

test('quotes, semicolons and line breaks cannot leave the header value', () => {
  const header = attachmentHeader('a"; filename=evil.html\r\nX-Injected: 1.txt');
  expect(header).toBe(
    `attachment; filename="a__ filename_evil.html__X-Injected_ 1.txt"; filename*=UTF-8''a%22%3B%20filename%3Devil.html%0D%0AX-Injected%3A%201.txt`,
  );
  expect(header).not.toMatch(/[\r\n]/);
});
