// A minimal LSP client over stdio for the schema's yaml-language-server
// test: Content-Length framing, requests with ids, the server's own
// requests answered (workspace/configuration from the given settings),
// notifications kept by method.
import { spawn } from 'node:child_process';

export class Client {
  constructor(cmd, args, settings) {
    this.settings = settings;
    this.proc = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.proc.stderr.on('data', (d) => { this.stderr += d; });
    this.buf = Buffer.alloc(0);
    this.next = 1;
    this.pending = new Map();
    this.waiters = [];
    this.notes = [];
    this.proc.stdout.on('data', (d) => this.#read(d));
  }

  #read(chunk) {
    this.buf = Buffer.concat([this.buf, chunk]);
    for (;;) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const m = /Content-Length: (\d+)/i.exec(this.buf.subarray(0, end).toString());
      const len = Number(m[1]);
      if (this.buf.length < end + 4 + len) return;
      const msg = JSON.parse(this.buf.subarray(end + 4, end + 4 + len).toString());
      this.buf = this.buf.subarray(end + 4 + len);
      this.#handle(msg);
    }
  }

  #handle(msg) {
    if (msg.method && msg.id !== undefined) {
      let result = null;
      if (msg.method === 'workspace/configuration') {
        result = msg.params.items.map((it) => (it.section ? this.settings[it.section] ?? null : this.settings));
      }
      this.#send({ jsonrpc: '2.0', id: msg.id, result });
      return;
    }
    if (msg.method) {
      this.notes.push(msg);
      this.waiters = this.waiters.filter((w) => !w(msg));
      return;
    }
    const p = this.pending.get(msg.id);
    if (p) {
      this.pending.delete(msg.id);
      msg.error ? p.reject(new Error(JSON.stringify(msg.error))) : p.resolve(msg.result);
    }
  }

  #send(msg) {
    const body = Buffer.from(JSON.stringify(msg));
    this.proc.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.proc.stdin.write(body);
  }

  request(method, params) {
    const id = this.next++;
    this.#send({ jsonrpc: '2.0', id, method, params });
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  notify(method, params) {
    this.#send({ jsonrpc: '2.0', method, params });
  }

  // waitFor resolves with the first notification (already received or
  // to come) for which match returns true; rejects after ms.
  waitFor(match, ms, what) {
    const seen = this.notes.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} in ${ms} ms; server stderr:\n${this.stderr}`)), ms);
      this.waiters.push((msg) => {
        if (!match(msg)) return false;
        clearTimeout(timer);
        resolve(msg);
        return true;
      });
    });
  }

  async close() {
    await this.request('shutdown', null).catch(() => {});
    this.notify('exit', null);
    this.proc.kill();
  }
}
