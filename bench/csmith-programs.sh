# Sourced by the csmith benchmarks with their arguments: `seeds` (the arguments, default 1..30), a
# temporary `work` folder (removed on exit) holding `empty.json` (a test without inputs) and the
# program `p$SEED.c` that `csmith --no-packed-struct --seed SEED` generates for each seed.
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=($(seq 1 30))
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo '{"inputs":[]}' > "$work/empty.json"
for s in "${seeds[@]}"; do
    (cd "$work" && csmith --no-packed-struct --seed "$s" > "p$s.c")
done
