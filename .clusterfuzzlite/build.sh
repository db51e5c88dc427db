#!/bin/bash -eu
# Builds every cargo-fuzz target of fuzz/ unchanged and hands each to the fuzzing service with
# its seed corpus (fuzz/seeds/TARGET, when there is one) and dictionary (fuzz/TARGET.dict).
# Fail on the first error even when run as `bash build.sh` (the shebang's flags are then ignored).
set -euo pipefail
cd "$SRC/touchstone"
cargo fuzz build -O --debug-assertions
out_dir=fuzz/target/x86_64-unknown-linux-gnu/release
for target in $(cargo fuzz list); do
  cp "$out_dir/$target" "$OUT/"
  if [ -d "fuzz/seeds/$target" ]; then
    (cd "fuzz/seeds/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
  fi
  if [ -f "fuzz/$target.dict" ]; then
    cp "fuzz/$target.dict" "$OUT/$target.dict"
  fi
done
