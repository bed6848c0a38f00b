#!/usr/bin/env bash
# Builds gpu-bundle/: everything needed to check the GPU backend on a machine with an NVIDIA GPU
# and no Java or Maven (issue 5). Usage: scripts/gpu-bundle.sh [toy-en|toy-multi]  (default toy-en)
#   gpu-bundle/runtime/   jlink'd Java runtime
#   gpu-bundle/lib/       Dictum's jars and their dependencies; lib-test/ the GPU tests and JUnit
#   gpu-bundle/hip-standin/  the HIP stand-in's source and build script (test infrastructure only)
#                            plus Debian's HIP headers (include/hip)
#   gpu-bundle/testdata/  the toy model's q8_0 ggml file (xz) and its sample WAVs with transcripts
#   gpu-bundle/run.sh     builds the stand-in, runs every GPU test, doctor and the samples through
#                         cuda, hip (stand-in) and cpu; ends with "N passed, N failed"
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/java-env.sh
toy="${1:-toy-en}"
case "$toy" in toy-en|toy-multi) ;; *) echo "gpu-bundle: unknown model '$toy' (toy-en or toy-multi)" >&2; exit 2 ;; esac
testdata="${DICTUM_TESTDATA:-testdata}"
model="$testdata/models/$toy/ggml-$toy-q8_0.bin"
samples="$testdata/data/$toy-samples"
[ -f "$model" ] || { echo "gpu-bundle: $model is missing" >&2; exit 1; }
[ -d /usr/include/hip ] || { echo "gpu-bundle: Debian's HIP headers are missing (apt-get install libamdhip64-dev)" >&2; exit 1; }

out=gpu-bundle
rm -rf "$out"
mkdir -p "$out"/{lib,lib-test,testdata/models/"$toy",testdata/data}

echo "gpu-bundle: building (tests compiled, not run)"
# One reactor run: package, and copy each module's test-scope dependencies (the tests need AssertJ,
# JUnit params; the fuzzing and benchmark-only dependencies stay out, and so does ArchUnit (4.6 MB),
# whose architecture rules run in CI, not among the bundle's GPU tests).
mvn -q -B -DskipTests package dependency:copy-dependencies -pl app -am -DincludeScope=test \
  -DexcludeGroupIds=com.code-intelligence,io.github.givimad,org.msgpack,com.tngtech.archunit \
  -DoutputDirectory="$PWD/$out/lib-test/deps"
cp app/target/dictum-app-*.jar app/target/lib/*.jar "$out/lib/"
# The tests' own classes; of the dependencies only what the runtime jars lack.
for m in gpu-runtime whisper-model app; do
  jar --create --file "$out/lib-test/$m-tests.jar" -C "$m/target/test-classes" .
done
for j in "$out"/lib-test/deps/*.jar; do
  [ -f "$out/lib/$(basename "$j")" ] && rm "$j"
done
rm -f "$out"/lib-test/deps/dictum-*.jar
# The desktop app's own libraries (JavaFX, the tray look, icons, hotkeys: 13 MB) serve
# no GPU test, doctor or transcription; the CLI loads them only for `dictum app`. Left out, the bundle
# stays under what a device call carries.
for d in "$out/lib" "$out/lib-test/deps"; do
  rm -f "$d"/javafx-*.jar "$d"/ikonli-*.jar "$d"/flatlaf-*.jar "$d"/jnativehook-*.jar
done
# SQLite stays, for InterruptedDictationTest's real-GPU fault case (the history row of a dictation whose
# device failed), but only with the one native library the GPU machine loads (Linux x86_64): 13 MB -> 2.
for j in "$out"/lib/sqlite-jdbc-*.jar; do
  zip -q -d "$j" 'org/sqlite/native/Windows/*' 'org/sqlite/native/Mac/*' 'org/sqlite/native/FreeBSD/*' \
    'org/sqlite/native/Linux-Android/*' 'org/sqlite/native/Linux-Musl/*' 'org/sqlite/native/Linux/a*' \
    'org/sqlite/native/Linux/p*' 'org/sqlite/native/Linux/r*' 'org/sqlite/native/Linux/x86/*' >/dev/null || true
done
rm -f "$out"/lib-test/deps/sqlite-jdbc-*.jar
mvn -q -B dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:1.11.4 \
  -DoutputDirectory="$PWD/$out/lib-test"

# byte-buddy (8 MB) serves only AssertJ soft assertions and proxies, which these tests do not use.
for j in "$out"/lib-test/deps/junit-*.jar "$out"/lib-test/deps/opentest4j-*.jar "$out"/lib-test/deps/apiguardian-*.jar \
  "$out"/lib-test/deps/byte-buddy-*.jar; do
  rm -f "$j" # all inside the console launcher's standalone jar
done

# The Java runtime: the modules jdeps finds (java.desktop only for TarsosDSP classes Dictum does not
# load), uncompressed and then packed with xz as runtime.tar.xz (15 MB instead of 64), so that the
# folder stays under the 62 MB a device call can carry; run.sh unpacks it.
echo "gpu-bundle: jlink runtime"
rt="$(mktemp -d)"
"$JAVA_HOME/bin/jlink" --add-modules \
  java.base,java.logging,jdk.unsupported,jdk.incubator.vector,java.naming,java.sql,java.management \
  --strip-debug --no-man-pages --no-header-files --compress=0 --output "$rt/runtime" 2>/dev/null
strip --strip-unneeded "$rt/runtime/lib/server/libjvm.so"
tar -C "$rt" -cJf "$out/runtime.tar.xz" runtime
rm -rf "$rt"

# The stand-in loads PTX where Dictum hands it a gfx1010 code object: the PTX from the jar.
mkdir -p "$out/kernels"
(cd "$out/kernels" && unzip -q -o ../lib/dictum-native-*.jar 'dev/dictum/kernels/ptx/*' && mv dev/dictum/kernels/ptx . && rm -rf dev)
# Where a module's AMD body is portable (manifest "testModules": attention, gemm, conv1d_gelu), the
# stand-in gets that body's PTX under the module's name, so the HIP runs execute the code a real AMD
# card would run, not the NVIDIA tensor-core body (both define the same kernels; one PTX per module
# keeps the stand-in's choice unambiguous). GpuBackend launches gemm_f16 and conv1d_gelu_f16 on the
# portable body's 128 x 128 grid wherever it loads a .hsaco, as the stand-in's HIP runs do.
for p in "$out"/kernels/ptx/*_portable.ptx; do
  [ -e "$p" ] && mv "$p" "${p%_portable.ptx}.ptx"
done
# PTX is text: xz-packed it is a tenth of its 3+ MB (the bundle must fit a device call); run.sh unpacks it.
tar -C "$out/kernels" -cJf "$out/kernels-ptx.tar.xz" ptx && rm -rf "$out/kernels"
if [ -d native/hip-standin ]; then
  cp -r native/hip-standin "$out/hip-standin"
else
  echo "gpu-bundle: WARNING: native/hip-standin is missing; the bundle's HIP runs will fail" >&2
  mkdir -p "$out/hip-standin"
  printf '#!/usr/bin/env bash\necho "no HIP stand-in in this bundle (native/hip-standin was missing)" >&2\nexit 1\n' \
    >"$out/hip-standin/build.sh"
fi
mkdir -p "$out/hip-standin/include"
cp -r /usr/include/hip "$out/hip-standin/include/hip"

# xz-packed (25 → 22 MB: the bundle must fit a device call beside the checkout's sources); run.sh unpacks it
xz -T0 -6 -c "$model" >"$out/testdata/models/$toy/$(basename "$model").xz"
# The random large-v3 models of the GPU tests take their tokenizer from toy-multi's Hugging Face
# folder: its small files, xz-packed (1 MB instead of 6), unpacked by run.sh.
tok=()
for f in vocab.json merges.txt added_tokens.json tokenizer.json tokenizer_config.json special_tokens_map.json \
  generation_config.json config.json preprocessor_config.json; do
  tok+=("models/toy-multi/$f")
done
tar -C "$testdata" -cJf "$out/testdata-tokenizer.tar.xz" "${tok[@]}"
cp -r "$samples" "$out/testdata/data/"
cp scripts/gpu-bundle-run.sh "$out/run.sh"
chmod +x "$out/run.sh"
echo "$toy" >"$out/MODEL"
du -sh "$out"
size=$(du -sm "$out" | cut -f1)
# A device call carries 64 MiB in all: the bundle and the checkout's tracked files (testdata's 200 MB
# must stay behind: move it out of the tree, or out of the index, for the call; the rest is ~6 MB).
[ "$size" -le 58 ] || { echo "gpu-bundle: $out is ${size} MB, over the 58 MB a device call can carry beside the checkout's sources (64 MiB in all)" >&2; exit 1; }
echo "gpu-bundle: ready in $out (${size} MB); run $out/run.sh on the GPU machine"
