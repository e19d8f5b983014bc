#!/usr/bin/env bash
# The project's test command (README): type-check, lint, the layer rules, unit + integration tests (vitest, real HTTP
# against the scripted model server and a third-party mock server), a production build, the security suite against
# that build (vitest.security.config.mts), several instances on one PostgreSQL database against that build
# (vitest.instances.config.mts), and the browser tests (Playwright with Debian's chromium). The PostgreSQL tests
# (the store's contract suite on PostgreSQL, the shared live runs, the two instances) run against a throwaway cluster
# started here (scripts/pg-cluster.sh) and stopped at the end. Ends with one plain "N passed, N failed" line over every test
# that ran.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results reports
rm -f reports/check-* reports/vitest.json reports/vitest-security.* reports/vitest-instances.* reports/playwright.*
status=0
step() { echo; echo "== $* =="; }

# The PostgreSQL tests fail (rather than skip) when this is set and the cluster is missing.
export EXPECT_POSTGRES=1
step "PostgreSQL (a throwaway cluster)"
if cluster=$(scripts/pg-cluster.sh start); then
  PG_CLUSTER_DIR=${cluster%% *}
  export TEST_DATABASE_URL=${cluster#* }
  trap 'scripts/pg-cluster.sh stop "$PG_CLUSTER_DIR"' EXIT
  echo "listening at $TEST_DATABASE_URL"
else
  echo "!! no PostgreSQL cluster: the PostgreSQL tests will fail (apt-get install -y postgresql)"; status=1
fi

# The static checks need nothing of each other and each keeps one core busy: all four at once (CI has two cores:
# about half their time in a row), each one's output kept aside and shown whole under its heading once all are done.
checks=()
check() {
  local title=$1 name=$2
  shift 2
  checks+=("$name|$title")
  ( "$@" > "reports/check-$name.log" 2>&1; echo $? > "reports/check-$name.status" ) &
}
check "type-check" tsc npx tsc --noEmit
check "lint" eslint npx eslint .
check "layers (dependency-cruiser)" layers npm run --silent check:layers
check "format" prettier npx prettier --check .
wait
for entry in "${checks[@]}"; do
  name=${entry%%|*}
  step "${entry#*|}"
  cat "reports/check-$name.log"
  [ "$(cat "reports/check-$name.status" 2> /dev/null)" = 0 ] || status=1
done
step "unit and integration tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile=reports/vitest.json || status=1

step "build"; npx next build > reports/next-build.log 2>&1 || { cat reports/next-build.log; status=1; }
# The suites against the build: the security suite and the instances (each file its own servers, on ports and data
# of its own), and the browser tests. The browser tests take most of the run and keep little of the CPU busy
# (workers: 1, mostly waiting on streamed answers and the page), so the two vitest suites run beside them, one after
# the other, their output kept aside and shown whole once the browser tests are done. They start once Playwright
# has emptied test-results/ (exposure.test.ts keeps data there): its "Running N tests" line comes after that.
against_build() {
  local name
  for name in security instances; do
    npx vitest run --config "vitest.$name.config.mts" --reporter=default --reporter=json \
      --outputFile="reports/vitest-$name.json" > "reports/vitest-$name.log" 2>&1
    echo $? > "reports/vitest-$name.status"
  done
}
show_against_build() {
  step "security suite (vitest, against the build)"
  cat reports/vitest-security.log
  [ "$(cat reports/vitest-security.status 2> /dev/null)" = 0 ] || status=1
  step "several instances on PostgreSQL (vitest, against the build)"
  cat reports/vitest-instances.log
  [ "$(cat reports/vitest-instances.status 2> /dev/null)" = 0 ] || status=1
}

if [ -x /usr/bin/chromium ]; then
  step "browser tests (playwright; the security suite and the instances beside them, shown after)"
  (
    until grep -q '^Running ' reports/playwright.log 2> /dev/null || [ -e reports/playwright.done ]; do sleep 1; done
    against_build
  ) &
  beside=$!
  PLAYWRIGHT_JSON_OUTPUT_NAME=reports/playwright.json npx playwright test --reporter=list,json 2>&1 |
    tee reports/playwright.log
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
  touch reports/playwright.done
  wait "$beside"
  show_against_build
else
  against_build
  show_against_build
  echo; echo "!! /usr/bin/chromium is missing: browser tests NOT run (apt-get install -y chromium)"; status=1
fi

node scripts/tally.mjs reports/vitest.json reports/vitest-security.json reports/vitest-instances.json \
  reports/playwright.json || status=1
exit $status
