# Sourced by the scripts that use ../shared (run from the repository root): `require_shared SUB` sets
# `shared` to the folder beside the repository that has SUB (or beside a worktree one level further
# down), or says that the script skips and exits 0.
require_shared() {
    for shared in ../shared ../../shared; do
        [ -d "$shared/$1" ] && return 0
    done
    echo "skipped: ../shared/$1 is absent"
    exit 0
}
