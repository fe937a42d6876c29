import { describe, expect, it } from 'vitest';
import { renderGoTemplate, sprintf, TemplateError } from '../../src/cli/output/go-template.js';

const doc = {
  status: {
    id: 'abc123',
    metadata: { name: 'web', attempt: 0 },
    labels: { b: '2', a: '1' },
    createdAt: '1700000000000000000',
    repoTags: ['busybox:latest', 'busybox:1.36'],
    ready: true,
    empty: [],
    nothing: null,
  },
  info: { pid: 42 },
  items: [{ name: 'x', n: 1 }, { name: 'y', n: 2 }],
};

describe('renderGoTemplate', () => {
  it.each([
    ['{{.status.id}}', 'abc123'],
    ['{{.status.metadata.name}}/{{.info.pid}}', 'web/42'],
    ['{{.Status.Id}}', 'abc123'],
    ['{{.status.createdAt}}', '1700000000000000000'],
    ['{{.status.repoTags}}', '[busybox:latest busybox:1.36]'],
    ['{{.status.labels}}', 'map[a:1 b:2]'],
    ['{{.status.ready}}', 'true'],
    ['{{$.status.id}}', 'abc123'],
    ['{{"\\n"}}', '\n'],
    ['{{`raw\\n`}}', 'raw\\n'],
    ['{{range .items}}{{.name}},{{end}}', 'x,y,'],
    ['{{range $i, $e := .items}}{{$i}}={{$e.name}} {{end}}', '0=x 1=y '],
    ['{{range $k, $v := .status.labels}}{{$k}}{{$v}}{{end}}', 'a1b2'],
    ['{{range .status.empty}}x{{else}}none{{end}}', 'none'],
    ['{{if .status.ready}}yes{{else}}no{{end}}', 'yes'],
    ['{{if .status.empty}}yes{{else}}no{{end}}', 'no'],
    // crictl decodes numbers as json.Number, a non-empty string: even 0 is true.
    ['{{if .status.metadata.attempt}}yes{{else}}no{{end}}', 'yes'],
    ['{{if .status.nothing}}a{{else if .status.ready}}b{{else}}c{{end}}', 'b'],
    ['{{with .status.metadata}}{{.name}}{{end}}', 'web'],
    ['{{json .status.metadata}}', '{"attempt":0,"name":"web"}\n'],
    ['{{.status.metadata | json}}', '{"attempt":0,"name":"web"}\n'],
    ['{{printf "%s-%d" .status.id .info.pid}}', 'abc123-42'],
    ['{{printf "%-6s|" .status.metadata.name}}', 'web   |'],
    ['{{upper .status.id}} {{title "hello world"}}', 'ABC123 Hello World'],
    ['{{len .items}} {{index .status.repoTags 1}}', '2 busybox:1.36'],
    ['{{if eq .status.id "abc123"}}same{{end}}', 'same'],
    ['{{if and .status.ready (not .status.empty)}}ok{{end}}', 'ok'],
    ['{{(index .items 1).name}}', 'y'],
    ['{{$n := .status.metadata.name}}{{$n}}', 'web'],
    ['a  {{- .status.id -}}  b', 'aabc123b'],
    ['{{/* a comment */}}x', 'x'],
    ['x\n{{- range .items}}\n  {{.name}}\n{{- end}}\n', 'x\n  x\n  y\n'],
  ])('renders %s', (tpl, want) => {
    expect(renderGoTemplate(tpl, doc)).toBe(want);
  });

  it('escapes HTML characters in json as Go does', () => {
    expect(renderGoTemplate('{{json .}}', { a: '<b>&' })).toBe('{"a":"\\u003cb\\u003e\\u0026"}\n');
  });

  it.each([
    ['{{.status.missing}}', /no entry for key "missing"/],
    ['{{.status.id.x}}', /can't evaluate field x in type string/],
    ['{{.status.nothing.x}}', /nil pointer/],
    ['{{nosuch .x}}', /function "nosuch" not defined/],
    ['{{if .status.ready}}open', /missing \{\{end\}\}/],
    ['{{end}}', /unexpected \{\{end\}\}/],
    ['{{.status.id', /unclosed action/],
    ['{{template "x"}}', /not supported/],
    ['{{$nope}}', /undefined variable/],
  ])('fails clearly on %s', (tpl, msg) => {
    expect(() => renderGoTemplate(tpl, doc)).toThrow(TemplateError);
    expect(() => renderGoTemplate(tpl, doc)).toThrow(msg);
  });
});

describe('sprintf', () => {
  it.each([
    ['%v|%s|%q', ['a', 'b', 'c'], 'a|b|"c"'],
    ['%05d', [42], '00042'],
    ['%.2f%%', [3.14159], '3.14%'],
    ['%x', [255], 'ff'],
    ['%t', [true], 'true'],
    ['%d', [], '%!d(MISSING)'],
  ])('formats %s', (fmt, args, want) => {
    expect(sprintf(fmt, args)).toBe(want);
  });
});
