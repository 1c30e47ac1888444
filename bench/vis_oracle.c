/*
** bench/vis_oracle.c -- the any-angle optimum that bench/anyangle.lua
** measures any_angle against, on maps too big for a Lua oracle.
**
**   build/bench/vis_oracle MAP RULE < queries
**
** MAP is a Moving AI map ('.', 'G', 'S' open), RULE a diagonal rule
** ("never", "no_corner_cutting", "one_obstacle", "always").  Each input line
** is "sx sy gx gy bound" (1-based cells; bound: a path length known to be
** reachable, the any_angle answer); each output line the length of the
** shortest path through cell centres whose consecutive points have passage
** under the rule (astar_grid_segment_cost with no query: blocked cells and
** the corner rule of RULE, the same segments as any_angle's), or "none"
** when that path is longer than bound (the restriction below missed a turn
** that any_angle found).
**
** The optimum is a Dijkstra (A* with the Euclidean heuristic) over the
** visibility graph of the start, the goal and the *corner cells*: open
** cells within two cells (Chebyshev) of a convex obstacle corner (a blocked
** cell with, in some diagonal direction, the cell there and the two beside
** the corner open).  A shortest path through centres turns round such
** corners: at the cell diagonal to one or beside a block's end (over a
** one-cell block from (-5, 0) to (5, 0) by (0, 1)), and sometimes a cell
** further out (the lattice of centres may not offer a good line from the
** nearest one); spec/anyangle_spec.lua checks on small
** random maps that this restriction gives the same lengths as the
** visibility graph of every open cell.  Nodes outside the ellipse
** |s c| + |c g| <= bound cannot be on a path of length <= bound and are
** left out; a segment is tested only when it would improve a node.  The
** search is quadratic in the nodes kept: a sample of queries, not a
** scenario file.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astar.h"

static int32_t W, H;
static astar_grid *gr;
static int32_t *corner, ncorner;

static int open_at(int32_t x, int32_t y) {
  return x >= 0 && y >= 0 && x < W && y < H && astar_grid_blocked(gr, x, y) == 0;
}

/* A blocked cell (inside the grid) with a convex corner: for some diagonal
** direction, the cell there and the two beside that corner are open. */
static int convex(int32_t x, int32_t y) {
  int dx, dy;
  if (x < 0 || y < 0 || x >= W || y >= H || open_at(x, y)) return 0;
  for (dy = -1; dy <= 1; dy += 2)
    for (dx = -1; dx <= 1; dx += 2)
      if (open_at(x + dx, y + dy) && open_at(x + dx, y) && open_at(x, y + dy)) return 1;
  return 0;
}

static int load(const char *path, int rule) {
  FILE *f = fopen(path, "rb");
  char line[70000];
  int32_t y = 0, x;
  if (!f) return 0;
  while (fgets(line, sizeof line, f)) {
    if (sscanf(line, "height %d", &H) == 1) continue;
    if (sscanf(line, "width %d", &W) == 1) continue;
    if (strncmp(line, "map", 3) == 0) break;
  }
  gr = astar_grid_new(W, H, rule, NULL, NULL);
  if (!gr) return 0;
  while (y < H && fgets(line, sizeof line, f)) {
    for (x = 0; x < W; x++) {
      char c = line[x];
      if (!(c == '.' || c == 'G' || c == 'S')) astar_grid_set_blocked(gr, x, y, 1);
    }
    y++;
  }
  fclose(f);
  corner = malloc(sizeof(int32_t) * (size_t)W * (size_t)H);
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++) {
      int dx, dy, is = 0;
      if (!open_at(x, y)) continue;
      for (dy = -2; dy <= 2; dy++)
        for (dx = -2; dx <= 2; dx++)
          if (convex(x + dx, y + dy)) is = 1;
      if (is) corner[ncorner++] = y * W + x;
    }
  return 1;
}

static double dist(int32_t a, int32_t b) {
  double ddx = a % W - b % W, ddy = a / W - b / W;
  return sqrt(ddx * ddx + ddy * ddy);
}

static int passes(int32_t a, int32_t b) {
  double c = 0;
  return astar_grid_segment_cost(gr, NULL, a % W, a / W, b % W, b / W, &c, NULL) == ASTAR_OK &&
         c < HUGE_VAL;
}

/* A binary heap of (f, node) with lazy deletion: a node is pushed again
** when its g improves, and stale entries are skipped when popped. */
typedef struct entry {
  double f;
  int32_t v;
} entry;
static entry *heap;
static size_t nheap;

static void push(double f, int32_t v) {
  size_t i = nheap++;
  while (i > 0 && heap[(i - 1) / 2].f > f) {
    heap[i] = heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  heap[i].f = f;
  heap[i].v = v;
}

static entry pop(void) {
  entry top = heap[0], last = heap[--nheap];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= nheap) break;
    if (c + 1 < nheap && heap[c + 1].f < heap[c].f) c++;
    if (!(heap[c].f < last.f)) break;
    heap[i] = heap[c];
    i = c;
  }
  if (nheap > 0) heap[i] = last;
  return top;
}

/* The optimum from s to t, HUGE_VAL when above bound. */
static double solve(int32_t s, int32_t t, double bound) {
  int32_t *node = malloc(sizeof(int32_t) * ((size_t)ncorner + 2)), n = 0, i;
  double *g, *h, best = HUGE_VAL;
  char *done;
  size_t cap;
  bound = bound * (1 + 1e-9) + 1e-9;
  node[n++] = s;
  node[n++] = t;
  for (i = 0; i < ncorner; i++)
    if (corner[i] != s && corner[i] != t && dist(s, corner[i]) + dist(corner[i], t) <= bound)
      node[n++] = corner[i];
  g = malloc(sizeof(double) * (size_t)n);
  h = malloc(sizeof(double) * (size_t)n);
  done = calloc((size_t)n, 1);
  cap = (size_t)n * 64 + 16;
  heap = malloc(sizeof(entry) * cap);
  nheap = 0;
  for (i = 0; i < n; i++) {
    g[i] = i == 0 ? 0 : HUGE_VAL;
    h[i] = dist(node[i], t);
  }
  push(h[0], 0);
  while (nheap > 0) {
    entry e = pop();
    int32_t u = e.v, v;
    if (done[u] || e.f > g[u] + h[u]) continue; /* stale */
    if (e.f > bound) break;
    if (u == 1) {
      best = g[1];
      break;
    }
    done[u] = 1;
    for (v = 0; v < n; v++) {
      double nd;
      if (done[v]) continue;
      nd = g[u] + dist(node[u], node[v]);
      if (nd < g[v] && nd + h[v] <= bound && passes(node[u], node[v])) {
        g[v] = nd;
        if (nheap == cap) {
          entry *more = realloc(heap, sizeof(entry) * (cap *= 2));
          if (more == NULL) {
            fprintf(stderr, "vis_oracle: out of memory\n");
            exit(1);
          }
          heap = more;
        }
        push(nd + h[v], v);
      }
    }
  }
  free(heap);
  free(node);
  free(g);
  free(h);
  free(done);
  return best;
}

int main(int argc, char **argv) {
  static const char *const rules[] = {"never", "no_corner_cutting", "one_obstacle", "always"};
  int rule = -1, i;
  int sx, sy, gx, gy;
  double bound;
  for (i = 0; i < 4 && argc > 2; i++)
    if (strcmp(argv[2], rules[i]) == 0) rule = i;
  if (argc != 3 || rule < 0 || !load(argv[1], rule)) {
    fprintf(stderr, "usage: vis_oracle MAP RULE < \"sx sy gx gy bound\" lines\n");
    return 1;
  }
  while (scanf("%d %d %d %d %lf", &sx, &sy, &gx, &gy, &bound) == 5) {
    double d = solve((sy - 1) * W + sx - 1, (gy - 1) * W + gx - 1, bound);
    if (d < HUGE_VAL)
      printf("%.17g\n", d);
    else
      printf("none\n");
    fflush(stdout);
  }
  astar_grid_free(gr);
  free(corner);
  return 0;
}
