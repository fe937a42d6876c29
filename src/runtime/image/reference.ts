// Image reference parsing and normalisation as docker and containerd do it:
// `busybox` -> docker.io/library/busybox:latest; a first component with a dot,
// a colon or `localhost` is a registry host.
import { invalidArgument } from '../errors.js';

export interface ImageReference {
  /** Registry host as written in names: "docker.io", "127.0.0.1:5001". */
  domain: string;
  /** Repository path: "library/busybox". */
  path: string;
  tag?: string;
  digest?: string;
}

export const DEFAULT_DOMAIN = 'docker.io';
/** distribution/reference's NameTotalLengthMax: the normalised name (domain/path) before tag and digest. */
const NAME_TOTAL_LENGTH_MAX = 255;
const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}$/;
const DOMAIN = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::\d+)?$|^\[[0-9a-fA-F:]+\](?::\d+)?$/;

/** Parses and normalises a reference; a reference with neither tag nor digest gets `latest`. */
export function parseReference(input: string): ImageReference {
  const raw = input.trim();
  if (!raw) throw invalidArgument('empty image reference');
  let rest = raw;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) throw invalidArgument(`invalid digest in image reference "${raw}"`);
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) throw invalidArgument(`invalid tag in image reference "${raw}"`);
  }
  let domain = DEFAULT_DOMAIN;
  let path = rest;
  const slash = rest.indexOf('/');
  if (slash >= 0) {
    const first = rest.slice(0, slash);
    if (first.includes('.') || first.includes(':') || first === 'localhost' || first.startsWith('[')) {
      domain = first;
      path = rest.slice(slash + 1);
    }
  }
  if (domain === 'index.docker.io' || domain === 'registry-1.docker.io') domain = DEFAULT_DOMAIN;
  if (!DOMAIN.test(domain)) throw invalidArgument(`invalid registry host in image reference "${raw}"`);
  if (domain === DEFAULT_DOMAIN && !path.includes('/')) path = `library/${path}`;
  if (!path || !path.split('/').every((c) => COMPONENT.test(c))) {
    throw invalidArgument(`invalid image reference "${raw}": repository names must be lowercase [a-z0-9._-] components`);
  }
  const name = `${domain}/${path}`;
  if (name.length > NAME_TOTAL_LENGTH_MAX) {
    throw invalidArgument(`invalid image reference "${raw}": repository name must not be more than ${NAME_TOTAL_LENGTH_MAX} characters (${name.length})`);
  }
  if (!tag && !digest) tag = 'latest';
  return { domain, path, tag, digest };
}

/** "docker.io/library/busybox" */
export function repository(ref: ImageReference): string {
  return `${ref.domain}/${ref.path}`;
}

/** Full normalised form: repo:tag, repo@digest or repo:tag@digest. */
export function formatReference(ref: ImageReference): string {
  return `${repository(ref)}${ref.tag ? `:${ref.tag}` : ''}${ref.digest ? `@${ref.digest}` : ''}`;
}

/** The name a tag is recorded under ("docker.io/library/busybox:latest"), or undefined for digest-only refs. */
export function tagName(ref: ImageReference): string | undefined {
  return ref.tag ? `${repository(ref)}:${ref.tag}` : undefined;
}

/** The registry to contact for a domain (docker.io is served by registry-1.docker.io). */
export function registryHost(domain: string): string {
  return domain === DEFAULT_DOMAIN ? 'registry-1.docker.io' : domain;
}

/** True for hosts docker lets us reach over plain http without configuration. */
export function isLoopbackHost(host: string): boolean {
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '');
  return name === 'localhost' || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

/** True when `s` looks like a content digest ("sha256:<64 hex>"). */
export function isDigest(s: string): boolean {
  return /^sha256:[0-9a-f]{64}$/.test(s);
}
