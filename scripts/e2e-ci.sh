#!/usr/bin/env bash
# The end-to-end runs of the desktop app that CI makes (./test runs this after the unit tests):
#   1. toy-en sample_01, inserted by paste, after a minute of 20 hotkey taps a second;
#   2. a toy-multi clip with non-ASCII text (French), inserted by typing;
#   3. pink noise made with sox: nothing may be inserted;
#   4. Escape pressed mid-utterance with the hotkey held: nothing inserted, a cancelled history row;
#   5. the microphone's PulseAudio source unloaded mid-utterance: nothing inserted, a notice, and
#      the next dictation from a new source exact;
#   6. --disk-full: the recording cannot be saved, the text is inserted all the same;
#   7. a 100 s dictation of sample sentences with pauses, exact (issue 13);
#   8. the same kind of dictation as 1 with a window manager (openbox): runs 1-7 have none, the
#      condition under which the paste used to stall; both must stay under the release-to-text bound;
#   9. a short soak: 40 dictations of a day's mix (scripts/soak.sh).
# Runs 1-3 also end with stop-and-Enter and paste-last (--expect-no-leak): exactly the text, one
# newline, the text again; no key of the app's reaches the window.
# Each prints the release-to-text time the app measured. Screenshots: app/target/e2e-desktop/.
# Then the unit tests that need an X display (skipped by the plain test run) run under xvfb-run.
set -euo pipefail
cd "$(dirname "$0")/.."
out=app/target/e2e-desktop
mkdir -p "$out"
scripts/e2e-desktop.sh --expect-no-leak --insert paste --spam 60 testdata/data/toy-en-samples/sample_01.wav
scripts/e2e-desktop.sh --expect-no-leak --insert type --model testdata/models/toy-multi/ggml-toy-multi-q8_0.bin \
  testdata/data/toy-multi-samples/sample_fr_1.wav
sox -n -r 16000 -c 1 -b 16 "$out/noise.wav" synth 3 pinknoise vol 0.3
scripts/e2e-desktop.sh --expect-no-leak --insert paste "$out/noise.wav" ""
scripts/e2e-desktop.sh --cancel-with-escape testdata/data/toy-en-samples/sample_02.wav
# Known flake (session 5, 1 run in 3): the line is reopened while the dictation after the new source
# records, the dictation loses a second of audio and the toy model writes a sentence of its own. It
# is retried once, visibly; a second failure fails CI. Likely cause, fixed in session 12: a sound-server
# answer that did not name the stream's source reopened the line while idle (SourceChangeTest); the
# retry stays until CI logs show it unused.
scripts/e2e-desktop.sh --unplug-mic 1.5 testdata/data/toy-en-samples/sample_03.wav \
  || { echo "e2e: the unplug run failed once (the known reopen flake); once more" >&2;
       scripts/e2e-desktop.sh --unplug-mic 1.5 testdata/data/toy-en-samples/sample_03.wav; }
# A full disk (the data folder on a filled tmpfs): the text still arrives, no WAV left, history says "audio not saved".
scripts/e2e-desktop.sh --insert paste --disk-full
# 7. A 100 s dictation in one hold: the six toy-en sentences three times over, 1.2 s of quiet between
#    (issue 13: it arrived garbled from the 5th sentence on when 30 s windows cut sentences). Pieces are
#    cut at the pauses; with DEFAULT settings (issue 23: no flag) the pieces are not prompted with the
#    text before them (the toy was trained without prompts), so each is one exact sentence.
sox -n -r 16000 -c 1 -b 16 "$out/pause.wav" trim 0 1.2
long=()
long_text=""
for round in 1 2 3; do
  for i in 1 2 3 4 5 6; do
    long+=("testdata/data/toy-en-samples/sample_0$i.wav" "$out/pause.wav")
    long_text="$long_text $(awk -F'\t' -v f="sample_0$i.wav" '$1==f {print $2}' testdata/data/toy-en-samples/transcripts.tsv)"
  done
done
sox "${long[@]}" "$out/long-100s.wav"
scripts/e2e-desktop.sh --insert paste "$out/long-100s.wav" "${long_text# }"
scripts/e2e-desktop.sh --wm openbox --expect-no-leak --insert paste testdata/data/toy-en-samples/sample_04.wav
# 9. A short day (issue 24): 40 dictations of the soak's mix over the toy-en samples, every insertion
#    checked, memory, threads and fds sampled (about 3-4 minutes; app/target/soak/ci.png is its plot).
scripts/soak.sh --dictations 40 --report app/target/soak/ci.txt
echo "e2e: all desktop runs passed"
source scripts/java-env.sh
xvfb-run -a -s "-nolisten tcp" mvn -B -q -pl app -am test -Dtest='X11FocusTest,X11GrabsTest,X11TyperTest,X11TypingBenchmarkTest,X11ClipboardChangesTest,X11TextOfferTest,X11PasteRestoreTest,X11KeysTest,IndicatorTest' -Dsurefire.failIfNoSpecifiedTests=false
x11_reports=(app/target/surefire-reports/*X11FocusTest.txt app/target/surefire-reports/*X11GrabsTest.txt
  app/target/surefire-reports/*X11ClipboardChangesTest.txt app/target/surefire-reports/*X11TextOfferTest.txt
  app/target/surefire-reports/*X11PasteRestoreTest.txt app/target/surefire-reports/*X11KeysTest.txt
  app/target/surefire-reports/*IndicatorTest.txt
  app/target/surefire-reports/*X11TyperTest.txt app/target/surefire-reports/*X11TypingBenchmarkTest.txt)
grep -h "Tests run" "${x11_reports[@]}"
grep -h "X11 typing" app/target/surefire-reports/*X11TypingBenchmarkTest-output.txt
if grep -q "Skipped: [1-9]" "${x11_reports[@]}"; then
  echo "e2e: an X11 test was skipped under xvfb-run" >&2
  exit 1
fi
