// Authentication: who is asking, in the real server's order. A client certificate signed by the
// --client-ca-file CA names a user (its CommonName) and groups (its Organizations); else a bearer
// token from the static token file (--token-auth-file, CSV `token,user,uid,"group1,group2"`); a
// request with no credentials is system:anonymous when --anonymous-auth allows it. Credentials
// presented but not trusted (an unknown token, a certificate from another CA) are rejected with
// 401 even then, as real servers do: they never fall back to anonymous.
import { readFileSync } from 'node:fs';
import { unauthorized } from '../../api/status.ts';
import type { ClientCertificate } from '../request.ts';
import { ANONYMOUS, type UserInfo } from './authorizer.ts';

/** What a request brings to be known by: its headers, and the client certificate its connection presented. */
export interface Credentials {
  headers: Record<string, string | undefined>;
  clientCert?: ClientCertificate;
}

export interface Authenticator {
  authenticate(credentials: Credentials): UserInfo;
}

/** Parses the static token file's CSV; errors name the line. */
export function parseTokenFile(text: string, source = 'token file'): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const fields = splitCsv(line);
    if (fields.length < 3 || !fields[0] || !fields[1]) throw new Error(`${source} line ${i + 1}: want token,user,uid[,"group1,group2"]`);
    const groups = fields[3] ? fields[3].split(',').map((g) => g.trim()).filter(Boolean) : [];
    tokens.set(fields[0], { username: fields[1], uid: fields[2], groups: [...groups, 'system:authenticated'] });
  });
  return tokens;
}

function splitCsv(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((f) => f.trim());
}

export function loadTokenFile(path: string): Map<string, UserInfo> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`--token-auth-file ${path}: ${(e as Error).message}`);
  }
  return parseTokenFile(text, `--token-auth-file ${path}`);
}

export function authenticator(tokens: { get(token: string): UserInfo | undefined }, anonymousAuth: boolean): Authenticator {
  return {
    authenticate({ headers, clientCert }) {
      if (clientCert && 'user' in clientCert) return { username: clientCert.user, groups: [...clientCert.groups, 'system:authenticated'] };
      const auth = headers.authorization;
      if (auth !== undefined) {
        const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
        const user = m ? tokens.get(m[1]) : undefined;
        if (!user) throw unauthorized();
        return user;
      }
      if (!anonymousAuth || clientCert) throw unauthorized();
      return ANONYMOUS;
    },
  };
}
