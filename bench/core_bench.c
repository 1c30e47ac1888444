/*
** core_bench.c -- the C core alone on a Moving AI map: no Lua, no tables.
** Separates the solver's own speed from the binding's overhead.
**
**   make build/bench/core_bench     (this file, CORE_SRC and LIBS of src/sources.mk)
**   build/bench/core_bench file.map file.map.scen [stride] [repeat] [algorithm]
**
** algorithm: auto (default), astar, jps or jps+ (the grid's jump table is
** built first, not timed: build_seconds= says what it took).
**
** Prints one key=value line like the other baselines:
**   queries=N mismatches=M expansions=E seconds=S exp_per_sec=X median_us=U
**   build_seconds=B clock=cpu|wall clock_us=C [path=timed] [times_us=... expanded_each=...]
** A query's time is astar_search_begin and astar_search_step (the search
** alone: the path is read afterwards, untimed, unless CORE_BENCH_PATH=1),
** measured by two reads of the clock around it.  Times are CPU time of this process
** (CLOCK_PROCESS_CPUTIME_ID, clock=cpu): the machines are shared.
** CORE_BENCH_CLOCK=wall (opt-in) times each query by CLOCK_MONOTONIC
** instead, the way warthog's per-query "nanos" are (std::chrono's
** steady_clock: wall time, read without a system call); seconds= and
** median_us= then are wall time.  clock_us= is what two back-to-back reads of
** the clock in use measure (the median of 1001 pairs, taken before the
** queries): every timed query includes it once.  On a Linux VM a CPU-time
** read is a system call (~0.5 us), a monotonic one ~0.03 us; clock_us is a
** lower bound of what the clock costs a query (on game and street maps the
** median query measured 0.75-0.9 us more by the CPU clock than by the
** monotonic one), so compare medians taken by the same clock.
** CORE_BENCH_TIMES=1 (opt-in) appends every query's time in microseconds
** (times_us=, scenario order) and its expansions (expanded_each=), for
** pooled medians across maps (bench/warthog.lua).  CORE_BENCH_PATH=1
** (opt-in, path=timed) times the path too: every cell written by
** astar_search_path_fill into arrays kept across queries, as find_path
** builds its result (without links), within each query's time.
** CORE_BENCH_PHASES=1 (opt-in) splits each query's time in three, read by
** the clock between them (each part then holds one clock read, clock_us):
** astar_search_begin, the start's expansion (astar_search_step(s, 1)) and
** the rest of the search; it appends their totals (begin_seconds=,
** first_seconds=, rest_seconds=, of the kept run of each query) and the
** median query's parts (median_parts_us=begin,first,rest: the query whose
** total is the median).  The start expands every direction it may take,
** so on open maps it costs many later expansions (doc/design.md, "Where an
** online query's time goes").
** build_seconds= is CPU time whatever the clock.  A cost matches when it
** is within the scenario's own precision: half a unit of the last digit the
** file printed, plus the files' rounding noise (2e-8 relative; see
** lua/astar/maps.lua).
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "astar.h"

static clockid_t query_clock = CLOCK_PROCESS_CPUTIME_ID;

static double read_clock(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU time (table builds, and queries unless CORE_BENCH_CLOCK=wall) */
static double now(void) { return read_clock(CLOCK_PROCESS_CPUTIME_ID); }

/* a query's clock */
static double qnow(void) { return read_clock(query_clock); }

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The tolerance of a printed optimum ("1002.5" -> 0.05 + noise). */
static double tolerance(const char *printed, double opt) {
  const char *dot = strchr(printed, '.');
  int decimals = dot ? (int)strlen(dot + 1) : 0;
  return 0.5 * pow(10, -decimals) + 2e-8 * opt;
}

/* What an empty interval of the query clock measures: the median of 1001
** back-to-back pairs of reads, in seconds. */
static double clock_cost(void) {
  static double d[1001];
  int i;
  for (i = 0; i < 1001; i++) {
    double t0 = qnow();
    d[i] = qnow() - t0;
  }
  qsort(d, 1001, sizeof(double), cmp_double);
  return d[500];
}

static astar_grid *load_map(const char *path) {
  FILE *f = fopen(path, "rb");
  char line[70000];
  int w = 0, h = 0, y = 0, x;
  astar_grid *gr;
  unsigned char *cells;
  if (!f) return NULL;
  while (fgets(line, sizeof line, f)) {
    if (sscanf(line, "height %d", &h) == 1 || sscanf(line, "width %d", &w) == 1) continue;
    if (strncmp(line, "map", 3) == 0) break;
  }
  gr = astar_grid_new(w, h, ASTAR_DIAG_NO_CORNER_CUTTING, NULL, NULL);
  cells = (unsigned char *)calloc((size_t)w * (size_t)h, 1);
  while (gr && cells && y < h && fgets(line, sizeof line, f)) {
    for (x = 0; x < w; x++) cells[(size_t)y * (size_t)w + (size_t)x] = line[x] != '.' && line[x] != 'G' && line[x] != 'S';
    y++;
  }
  /* the map at once, as astar.maps.load writes it: the labels built here */
  if (gr && cells) astar_grid_set_blocked_all(gr, cells);
  free(cells);
  fclose(f);
  return gr;
}

int main(int argc, char **argv) {
  astar_grid *gr;
  astar_search *s;
  FILE *f;
  char line[1024];
  int stride = argc > 3 ? atoi(argv[3]) : 1, reps = argc > 4 ? atoi(argv[4]) : 1;
  int n = 0, bad = 0, row = 0, r, algo = ASTAR_ALGO_AUTO;
  double total = 0, *times = NULL, *order = NULL, build = 0, cost_of_clock;
  unsigned long long exp = 0, *each = NULL;
  const char *clk = getenv("CORE_BENCH_CLOCK"), *list = getenv("CORE_BENCH_TIMES");
  const char *pathenv = getenv("CORE_BENCH_PATH");
  int wall = clk && strcmp(clk, "wall") == 0, keep = list && strcmp(list, "1") == 0;
  int with_path = pathenv && strcmp(pathenv, "1") == 0;
  const char *phasenv = getenv("CORE_BENCH_PHASES");
  int phases = phasenv && strcmp(phasenv, "1") == 0;
  double *part = NULL, psum[3] = {0, 0, 0}; /* phases: begin, start, rest of each query */
  int32_t *kept = NULL, len = 0; /* the path's cells, kept across queries (with_path) */
  size_t kcap = 0;
  static int32_t nodes[1 << 20];
  if (argc < 3) {
    fprintf(stderr, "usage: %s map scen [stride] [repeat] [algorithm]\n", argv[0]);
    return 2;
  }
  if (clk && !wall && strcmp(clk, "cpu") != 0) {
    fprintf(stderr, "CORE_BENCH_CLOCK: 'cpu' or 'wall' expected, got '%s'\n", clk);
    return 2;
  }
  if (wall) query_clock = CLOCK_MONOTONIC;
  gr = load_map(argv[1]);
  s = astar_search_new(NULL, NULL);
  f = fopen(argv[2], "rb");
  if (!gr || !f) return 2;
  if (argc > 5) {
    const char *a = argv[5];
    algo = strcmp(a, "astar") == 0  ? ASTAR_ALGO_ASTAR
           : strcmp(a, "jps") == 0  ? ASTAR_ALGO_JPS
           : strcmp(a, "jps+") == 0 ? ASTAR_ALGO_JPS_PLUS
                                    : ASTAR_ALGO_AUTO;
    if (algo == ASTAR_ALGO_JPS_PLUS) {
      build = now();
      if (astar_grid_precompute_jumps(gr, 1) != ASTAR_OK) {
        fclose(f);
        return 2;
      }
      build = now() - build;
    }
  }
  times = malloc(sizeof(double) * 20000);
  order = malloc(sizeof(double) * 20000);
  each = malloc(sizeof(unsigned long long) * 20000);
  part = malloc(sizeof(double) * 3 * 20000);
  if (!times || !order || !each || !part) {
    fclose(f);
    return 2;
  }
  cost_of_clock = clock_cost();
  while (fgets(line, sizeof line, f)) {
    int b, mw, mh, sx, sy, gx, gy;
    double opt, cost, t0, best = 1e30;
    char map[512], printed[64];
    astar_query q;
    if (sscanf(line, "%d %511s %d %d %d %d %d %d %63s", &b, map, &mw, &mh, &sx, &sy, &gx,
               &gy, printed) != 9)
      continue;
    opt = atof(printed);
    if (row++ % stride) continue;
    if (n == 20000) {
      fprintf(stderr, "more than 20000 queries: the rest are left out (use a stride)\n");
      break;
    }
    astar_query_init(&q, sy * astar_grid_width(gr) + sx, gy * astar_grid_width(gr) + gx);
    q.heuristic = ASTAR_H_OCTILE;
    q.algorithm = algo;
    part[3 * n] = part[3 * n + 1] = part[3 * n + 2] = 0;
    for (r = 0; r < reps; r++) {
      double t1 = 0, t2 = 0;
      int rc;
      t0 = qnow();
      astar_search_begin(s, astar_grid_topology(gr), &q);
      if (phases) { /* the start's expansion alone, then the rest */
        t1 = qnow();
        rc = astar_search_step(s, 1);
        t2 = qnow();
        if (rc == ASTAR_SEARCHING) rc = astar_search_step(s, 0);
      } else {
        rc = astar_search_step(s, 0);
      }
      if (rc != ASTAR_FOUND ||
          (with_path && (astar_search_path_fill(s, q.goal, NULL, NULL, &kept, &kcap, NULL, NULL,
                                                &len, &cost) != ASTAR_OK ||
                         len < 1))) {
        bad++;
        break;
      }
      t2 -= t1;
      t1 -= t0;
      t0 = qnow() - t0;
      if (t0 < best) {
        best = t0;
        part[3 * n] = t1;
        part[3 * n + 1] = t2;
        part[3 * n + 2] = t0 - t1 - t2;
      }
    }
    psum[0] += part[3 * n];
    psum[1] += part[3 * n + 1];
    psum[2] += part[3 * n + 2];
    astar_search_path(s, q.goal, nodes, NULL, &cost);
    if (fabs(cost - opt) > tolerance(printed, opt)) bad++;
    each[n] = astar_search_stats(s)->expanded;
    exp += each[n];
    order[n] = best;
    times[n++] = best;
    total += best;
  }
  qsort(times, (size_t)n, sizeof(double), cmp_double);
  printf("queries=%d mismatches=%d expansions=%llu seconds=%.6f exp_per_sec=%.0f median_us=%.3f "
         "build_seconds=%.6f clock=%s clock_us=%.4f%s",
         n, bad, exp, total, exp / total, times[n / 2] * 1e6, build, wall ? "wall" : "cpu",
         cost_of_clock * 1e6, with_path ? " path=timed" : "");
  if (phases && n > 0) {
    int m = 0;
    while (m < n - 1 && order[m] != times[n / 2]) m++;
    printf(" begin_seconds=%.6f first_seconds=%.6f rest_seconds=%.6f median_parts_us=%.3f,%.3f,%.3f",
           psum[0], psum[1], psum[2], part[3 * m] * 1e6, part[3 * m + 1] * 1e6,
           part[3 * m + 2] * 1e6);
  }
  if (keep) {
    printf(" times_us=");
    for (r = 0; r < n; r++) printf(r ? ",%.3f" : "%.3f", order[r] * 1e6);
    printf(" expanded_each=");
    for (r = 0; r < n; r++) printf(r ? ",%llu" : "%llu", each[r]);
  }
  printf("\n");
  free(part);
  free(kept);
  return bad != 0;
}
