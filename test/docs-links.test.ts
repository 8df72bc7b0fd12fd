import * as fs from 'fs';
import * as path from 'path';

// Every relative link of the README, CONTRIBUTING.md and docs/ (and every `#anchor`, in the same
// file or another Markdown file) must resolve: the README points into the guides, the guides
// into each other and into the generated rule pages, and a moved heading must not leave a dead
// link behind.
const ROOT = path.join(__dirname, '..');

function markdownUnder(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? markdownUnder(`${dir}/${e.name}`) : e.name.endsWith('.md') ? [`${dir}/${e.name}`] : []))
    .sort();
}

const DOCUMENTS = ['README.md', 'CONTRIBUTING.md', ...markdownUnder('docs')];

/** The lines of a Markdown text outside fenced code blocks, with inline code removed. */
function prose(text: string): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const m = /^\s*(`{3,}|~{3,})/.exec(line);
    if (m) {
      if (fence === undefined) fence = m[1][0];
      else if (m[1][0] === fence) fence = undefined;
      continue;
    }
    if (fence === undefined) out.push(line.replace(/`[^`]*`/g, ''));
  }
  return out;
}

/** GitHub's anchor for a heading: rendered text, lower case, punctuation dropped, spaces to '-'. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();

/** The anchors a Markdown file offers: its headings (repeats get -1, -2, ...) and `<a id/name>`. */
function anchorsOf(file: string): Set<string> {
  const cached = anchorCache.get(file);
  if (cached) return cached;
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1][0];
      else if (f[1][0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = slug(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const a of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(a[1]);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

interface Link {
  readonly line: number;
  readonly target: string;
}

function linksOf(file: string): Link[] {
  const links: Link[] = [];
  prose(fs.readFileSync(path.join(ROOT, file), 'utf8')).forEach((line, i) => {
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ line: i + 1, target: m[1] });
  });
  return links.filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target));
}

/** What is wrong with a relative link of `file`, or undefined when it resolves. */
function broken(file: string, target: string): string | undefined {
  const [rawPath, anchor] = target.split('#', 2) as [string, string | undefined];
  const resolved = rawPath === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(rawPath)));
  if (resolved.startsWith('..')) return `${target} leaves the repository`;
  if (!fs.existsSync(path.join(ROOT, resolved))) {
    return `${target}: ${resolved} does not exist`;
  }
  if (anchor === undefined || anchor === '') return undefined;
  if (!resolved.endsWith('.md')) return `${target}: an anchor into a file that is not Markdown`;
  return anchorsOf(resolved).has(anchor) ? undefined : `${target}: ${resolved} has no heading or anchor '#${anchor}'`;
}

describe('links in the README, CONTRIBUTING.md and docs/', () => {
  test('the guides and the development notes are among the checked documents', () => {
    expect(DOCUMENTS).toEqual(expect.arrayContaining(['docs/guides/getting-started.md', 'docs/development/tooling.md', 'docs/doctor-rules.md']));
  });

  test('the README links to every guide', () => {
    const targets = new Set(linksOf('README.md').map((l) => l.target.split('#')[0]));
    for (const guide of markdownUnder('docs/guides')) expect(targets).toContain(guide);
  });

  test.each(DOCUMENTS)('every relative link and #anchor of %s resolves', (file) => {
    const problems = linksOf(file).flatMap((l) => {
      const why = broken(file, l.target);
      return why === undefined ? [] : [`${file}: ${why}`];
    });
    expect(problems).toEqual([]);
  });

  test('the anchors follow GitHub: punctuation dropped, spaces to hyphens, repeats numbered', () => {
    expect(slug('The doctor in `cdk8s synth`')).toBe('the-doctor-in-cdk8s-synth');
    expect(slug('Plugins (`spec.plugins[]`)')).toBe('plugins-specplugins');
    expect(slug('CNPGI001 `operator-namespace`')).toBe('cnpgi001-operator-namespace');
    expect(slug('Presets: Barman Cloud and hello-world')).toBe('presets-barman-cloud-and-hello-world');
    expect(broken('README.md', 'docs/guides/doctor.md#no-such-heading')).toBe(
      "docs/guides/doctor.md#no-such-heading: docs/guides/doctor.md has no heading or anchor '#no-such-heading'",
    );
    expect(broken('README.md', 'docs/guides/none.md')).toBe('docs/guides/none.md: docs/guides/none.md does not exist');
    expect(broken('docs/guides/doctor.md', '../doctor-rules.md#plan-rules')).toBeUndefined();
  });
});
