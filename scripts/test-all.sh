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
rm -f reports/vitest.json reports/vitest-security.json reports/vitest-instances.json reports/playwright.json
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

step "type-check"; npx tsc --noEmit || status=1
step "lint"; npx eslint . || status=1
step "layers (dependency-cruiser)"; npm run --silent check:layers || status=1
step "format"; npx prettier --check . || status=1
step "unit and integration tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile=reports/vitest.json || status=1

step "build"; npx next build > reports/next-build.log 2>&1 || { cat reports/next-build.log; status=1; }
step "security suite (vitest, against the build)"
npx vitest run --config vitest.security.config.mts --reporter=default --reporter=json \
  --outputFile=reports/vitest-security.json || status=1
step "several instances on PostgreSQL (vitest, against the build)"
npx vitest run --config vitest.instances.config.mts --reporter=default --reporter=json \
  --outputFile=reports/vitest-instances.json || status=1

if [ -x /usr/bin/chromium ]; then
  step "browser tests (playwright)"
  PLAYWRIGHT_JSON_OUTPUT_NAME=reports/playwright.json npx playwright test --reporter=list,json || status=1
else
  echo; echo "!! /usr/bin/chromium is missing: browser tests NOT run (apt-get install -y chromium)"; status=1
fi

node scripts/tally.mjs reports/vitest.json reports/vitest-security.json reports/vitest-instances.json \
  reports/playwright.json || status=1
exit $status
