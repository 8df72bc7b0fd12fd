import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { InputError, MAX_NESTING_DEPTH, collectFiles, parseManifestText, readManifestFiles } from '../../src/manifests/load';

/** The error `f` throws, which must be an InputError. */
function inputError(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error('did not throw');
}

describe('InputError reasons: a caller branches on the reason, not on the message', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpgi-load-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a path that does not exist, and a directory without manifests', () => {
    expect(inputError(() => collectFiles(['missing.yaml'], dir))).toMatchObject({ reason: 'not-found', message: 'missing.yaml: no such file or directory' });
    fs.mkdirSync(path.join(dir, 'empty'));
    fs.writeFileSync(path.join(dir, 'empty', 'README.md'), 'not a manifest');
    expect(inputError(() => collectFiles(['empty'], dir))).toMatchObject({
      reason: 'no-manifests',
      message: 'empty: no .yaml, .yml or .json files in this directory',
    });
    expect(inputError(() => collectFiles(['empty'], dir)).location).toBeUndefined();
  });

  test('a document that does not parse is a syntax error, located in its file', () => {
    const e = inputError(() => parseManifestText('a: 1\n---\nb: [\n', 'x.yaml'));
    expect(e.reason).toBe('syntax');
    expect(e.location).toMatchObject({ file: 'x.yaml' });
    expect(e.message.startsWith(`x.yaml:${e.location!.line}:${e.location!.column}: `)).toBe(true);
    expect(inputError(() => parseManifestText('? [a, b]\n: c\n', 'k.yaml')).reason).toBe('syntax');
    expect(inputError(() => parseManifestText('['.repeat(MAX_NESTING_DEPTH + 1), 'deep.yaml')).reason).toBe('syntax');
  });

  test('without a reason, an InputError is a usage error', () => {
    expect(new InputError('unknown option --frmat')).toMatchObject({ reason: 'usage', name: 'InputError' });
  });
});

describe('readManifestFiles: every file that parses, and why each other one did not', () => {
  const texts: Record<string, string> = {
    'a.yaml': 'kind: A\n---\nkind: B\n',
    'bad.yaml': 'kind: C\n---\na: [\n',
    'c.yaml': 'kind: D\n',
    '-': 'kind: E\n',
  };
  const read = (file: string) => {
    if (file === 'gone.yaml') throw new InputError('gone.yaml: cannot read it', { reason: 'unreadable' });
    return texts[file];
  };

  test('goes on past a file that does not parse; such a file is left out whole', async () => {
    const r = await readManifestFiles(['a.yaml', 'bad.yaml', 'gone.yaml', 'c.yaml'], read);
    expect(r.documents.map((d) => `${d.file} ${(d.value as { kind: string }).kind}`)).toEqual(['a.yaml A', 'a.yaml B', 'c.yaml D']);
    expect(r.parsed).toEqual(['a.yaml', 'c.yaml']);
    expect(r.failures.map((e) => [e.reason, e.location?.file, e.location?.line])).toEqual([
      ['syntax', 'bad.yaml', 4],
      ['unreadable', undefined, undefined],
    ]);
  });

  test('standard input is read once and shown as <stdin>', async () => {
    let reads = 0;
    const r = await readManifestFiles(['-', 'c.yaml', '-'], (f) => {
      if (f === '-') reads++;
      return read(f);
    });
    expect(reads).toBe(1);
    expect(r.parsed).toEqual(['<stdin>', 'c.yaml']);
  });

  test('an error that is not about the input is not swallowed', async () => {
    await expect(
      readManifestFiles(['a.yaml'], () => {
        throw new TypeError('a bug');
      }),
    ).rejects.toThrow('a bug');
  });
});
