/*
** taut.c -- a cell path of a square grid pulled taut: the turning points
** of an any-angle path in (nearly) the same corridor, found with segment
** tests only.  anyangle.c's fast any-angle mode runs the grid's own search
** (jump point search where it serves) and hands its cell path here.
**
** Passage is anyangle.c's uniform-cost segment test (astar__grid_pass:
** blocked and forbidden cells, the corner rule of the grid's diagonal
** rule), so every pair of consecutive points it returns has passage, and
** the points never make the path longer than the cell path: every change
** below is taken only when it shortens the path.
**
** Work: a few segment tests per turning point (galloping, then a local
** search around each turn), each walking the cells the segment crosses; no
** memory beyond the caller's array.
*/
#include <math.h>

#include "astar_int.h"

typedef struct taut {
  const astar_grid *gr;
  const double *forbid;
  int strict;
  int32_t w, h;
} taut;

static int sees(const taut *t, int32_t a, int32_t b) {
  return astar__grid_pass(t->gr, a % t->w, a / t->w, b % t->w, b / t->w, t->forbid, t->strict);
}

static double dist(const taut *t, int32_t a, int32_t b) {
  double ddx = (double)(a % t->w - b % t->w), ddy = (double)(a / t->w - b / t->w);
  return sqrt(ddx * ddx + ddy * ddy);
}

/*
** Greedy string pulling with galloping: from the anchor a, cells a + 1 + 2^k
** are tried until one is hidden (or the path ends), then the gap between the
** last seen and the first hidden is halved down to neighbours.  Sight along
** a path is not monotone, so this finds a seen cell with a hidden one next
** to it, not always the farthest seen: O(log k) segment tests per point
** instead of k.  Writes the chosen cells over cells[0..] (the write position
** never passes the read one) and returns their count.
*/
static int32_t pull(const taut *t, int32_t *cells, int32_t n) {
  int32_t m = 1, a = 0;
  while (a < n - 1) {
    int32_t lo = a + 1, hi = -1, step = 1, anchor = cells[a];
    while (lo < n - 1) {
      int32_t probe = lo + step > n - 1 ? n - 1 : lo + step;
      if (!sees(t, anchor, cells[probe])) {
        hi = probe;
        break;
      }
      lo = probe;
      step *= 2;
    }
    while (hi > lo + 1) {
      int32_t mid = lo + (hi - lo) / 2;
      if (sees(t, anchor, cells[mid]))
        lo = mid;
      else
        hi = mid;
    }
    cells[m++] = cells[lo];
    a = lo;
  }
  return m;
}

/* The radius of the local search around a turn, in cells. */
#define TAUT_R 2

/*
** One pass of local improvement over the turns pts[1..m-2]: a turn whose
** neighbours see each other is dropped; otherwise it moves to the cell
** within TAUT_R that gives the shortest detour between its neighbours with
** passage on both sides (candidates tried shortest first, the first with
** passage wins).  A turn beside an obstacle moves only to cells beside one
** (a path turns round obstacles, and each candidate costs two segment walks:
** most of this file's time on open maps); a turn in the open, where the
** pull left it, may move anywhere, towards the obstacle it turns round.  Returns the new count; *moved is set when anything
** changed.
*/
static int32_t settle(const taut *t, int32_t *pts, int32_t m, int *moved) {
  int32_t i = 1;
  while (i < m - 1) {
    int32_t a = pts[i - 1], b = pts[i + 1], p = pts[i], px = p % t->w, py = p / t->w;
    int32_t cand[(2 * TAUT_R + 1) * (2 * TAUT_R + 1)], nc = 0, k, ox, oy;
    double len[(2 * TAUT_R + 1) * (2 * TAUT_R + 1)], cur;
    int walled = astar__grid_walled(t->gr, px, py);
    if (sees(t, a, b)) {
      for (k = i; k < m - 1; k++) pts[k] = pts[k + 1];
      m--;
      *moved = 1;
      if (i > 1) i--; /* the turn before may now go too */
      continue;
    }
    cur = dist(t, a, p) + dist(t, p, b);
    for (oy = -TAUT_R; oy <= TAUT_R; oy++)
      for (ox = -TAUT_R; ox <= TAUT_R; ox++) {
        int32_t qx = px + ox, qy = py + oy, q = qy * t->w + qx, j;
        double d;
        if ((ox == 0 && oy == 0) || qx < 0 || qy < 0 || qx >= t->w || qy >= t->h ||
            (walled && !astar__grid_walled(t->gr, qx, qy)))
          continue;
        d = dist(t, a, q) + dist(t, q, b);
        if (!(d < cur * (1 - 1e-12))) continue;
        for (j = nc; j > 0 && len[j - 1] > d; j--) { /* insertion: shortest first */
          len[j] = len[j - 1];
          cand[j] = cand[j - 1];
        }
        len[j] = d;
        cand[j] = q;
        nc++;
      }
    for (k = 0; k < nc; k++)
      /* walked from the candidate out: a segment that fails mostly fails
      ** at the obstacle the turn is beside, at its start */
      if (sees(t, cand[k], a) && sees(t, cand[k], b)) {
        pts[i] = cand[k];
        *moved = 1;
        break;
      }
    i++;
  }
  return m;
}

int32_t astar__grid_taut(const astar_grid *gr, const double *forbid, int strict, int32_t *cells,
                         int32_t n) {
  taut t;
  int32_t m, pass;
  if (n < 3) return n;
  t.gr = gr;
  t.forbid = forbid;
  t.strict = strict;
  t.w = astar_grid_width(gr);
  t.h = astar_grid_height(gr);
  m = pull(&t, cells, n);
  for (pass = 0; pass < 8 && m > 2; pass++) {
    int moved = 0;
    m = settle(&t, cells, m, &moved);
    if (!moved) break;
  }
  return m;
}
