import type { Clock } from './clock.js';
import type { Rng } from './prng.js';
import { requestId } from './vocab-infra.js';
import { NOUNS, plural } from './vocab-words.js';

/**
 * Application log lines in the formats services actually emit — zap-style JSON, pino JSON, logfmt, Python
 * logging, Spring Boot/logback and klog — so one scenario can be rendered in any of them.
 */

export type LogFormat = 'zap' | 'pino' | 'logfmt' | 'python' | 'spring' | 'klog';
export type Level = 'debug' | 'info' | 'warn' | 'error' | 'fatal';

export const LOG_FORMATS: readonly LogFormat[] = ['zap', 'pino', 'logfmt', 'python', 'spring', 'klog'];

const PINO_LEVEL: Record<Level, number> = { debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

function jsonValue(v: string | number | boolean): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/** One log line; `fields` are structured key/values appended the way the format does it. */
export function logLine(
  format: LogFormat,
  clock: Clock,
  level: Level,
  logger: string,
  msg: string,
  fields: readonly (readonly [string, string | number | boolean])[] = [],
  host = 'app-0',
): string {
  switch (format) {
    case 'zap':
      return `{"level":"${level}","ts":"${clock.iso()}","caller":"${logger}","msg":${JSON.stringify(msg)}${fields.map(([k, v]) => `,"${k}":${jsonValue(v)}`).join('')}}`;
    case 'pino':
      return `{"level":${PINO_LEVEL[level]},"time":${clock.epochMs},"pid":1,"hostname":"${host}","name":"${logger}"${fields.map(([k, v]) => `,"${k}":${jsonValue(v)}`).join('')},"msg":${JSON.stringify(msg)}}`;
    case 'logfmt':
      return `time=${clock.iso()} level=${level} logger=${logger} msg=${/[\s"=]/.test(msg) ? JSON.stringify(msg) : msg}${fields.map(([k, v]) => ` ${k}=${typeof v === 'string' && /[\s"=]/.test(v) ? JSON.stringify(v) : v}`).join('')}`;
    case 'python':
      return `${clock.pythonLogging()} ${level === 'warn' ? 'WARNING' : level === 'fatal' ? 'CRITICAL' : level.toUpperCase()} [${logger}] ${msg}${fields.length > 0 ? ` ${fields.map(([k, v]) => `${k}=${v}`).join(' ')}` : ''}`;
    case 'spring': {
      const lvl = (level === 'warn' ? 'WARN' : level === 'fatal' ? 'ERROR' : level.toUpperCase()).padStart(5);
      const thread = `[${host.length > 0 ? 'nio-8080-exec-' : ''}${(clock.epochMs % 9) + 1}]`.padStart(18);
      return `${clock.iso()} ${lvl} 1 --- ${thread} ${logger.padEnd(40).slice(0, 40)} : ${msg}${fields.length > 0 ? ` ${fields.map(([k, v]) => `${k}=${v}`).join(', ')}` : ''}`;
    }
    case 'klog': {
      const letter =
        level === 'warn'
          ? 'W'
          : level === 'error' || level === 'fatal'
            ? level === 'fatal'
              ? 'F'
              : 'E'
            : 'I';
      return `${letter}${clock.klog()}       1 ${logger}] ${JSON.stringify(msg)}${fields.map(([k, v]) => ` ${k}=${typeof v === 'string' ? JSON.stringify(v) : v}`).join('')}`;
    }
  }
}

/** A logger name in the style of the format (a caller path, a module, a class). */
export function loggerName(rng: Rng, format: LogFormat, component: string): string {
  const n = rng.pick(NOUNS);
  switch (format) {
    case 'zap':
    case 'klog':
      return `${rng.pick(['server', 'internal/' + n, 'pkg/' + n, 'cmd'])}/${rng.pick([n, 'handler', 'client', 'store'])}.go:${rng.int(20, 600)}`;
    case 'pino':
      return component;
    case 'logfmt':
      return `${component}.${n}`;
    case 'python':
      return rng.pick([
        `${component.replace(/-/g, '_')}.${n}`,
        'uvicorn.access',
        'uvicorn.error',
        'sqlalchemy.engine',
        'celery.worker',
      ]);
    case 'spring':
      return `c.${component.split('-')[0]}.${n}.${n.charAt(0).toUpperCase()}${n.slice(1)}${rng.pick(['Controller', 'Service', 'Repository'])}`;
  }
}

/** A routine access-log style line: method, path, status, latency, request id (in `idStyle`, see requestId). */
export function requestLine(
  rng: Rng,
  format: LogFormat,
  clock: Clock,
  component: string,
  host: string,
  status?: number,
  idStyle?: number,
): string {
  const method = rng.weighted([
    ['GET', 6],
    ['POST', 3],
    ['PUT', 1],
    ['DELETE', 1],
  ] as const);
  const n = rng.pick(NOUNS);
  const path = `/v${rng.int(1, 2)}/${plural(n)}${rng.chance(0.6) ? `/${n.slice(0, 3)}_${rng.alnum(10)}` : ''}`;
  const code =
    status ??
    rng.weighted([
      [200, 30],
      [201, 4],
      [204, 3],
      [304, 2],
      [400, 1],
      [404, 2],
      [401, 1],
    ] as const);
  const ms = Number(rng.logNormal(18, 0.9).toFixed(1));
  return logLine(
    format,
    clock,
    code >= 500 ? 'error' : 'info',
    loggerName(rng, format, component),
    format === 'python'
      ? `${rng.int(10, 250)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}:${rng.int(30000, 65000)} - "${method} ${path} HTTP/1.1" ${code}`
      : 'request completed',
    format === 'python'
      ? []
      : [
          ['request_id', requestId(rng, idStyle)],
          ['method', method],
          ['path', path],
          ['status', code],
          ['duration_ms', ms],
        ],
    host,
  );
}
