/*
** sectors.c -- the connected components of a grid (square or hex), kept
** per sector so that an edit costs what it touches, never the map.
**
** The cells are cut into square sectors of S x S cells (S a power of two
** near the square root of the grid's longer side, 4 to 128; hex grids on
** their offset coordinates, the lattice's own).  Two levels:
**   - local labels: label[cell] numbers the components of the cell's
**     sector under the grid's moves restricted to the sector (the move
**     masks already hold the diagonal rule and the hex neighbourhood), in
**     the order their first cells come in the sector's rows; LAB_NONE on a
**     blocked cell;
**   - the sector graph: one node per (sector, local component), and per
**     border between two adjacent sectors the pairs of local components
**     that a move crosses (deduplicated).  Every move that leaves a sector
**     enters one of its eight neighbours, and a sector owns the borders to
**     its E, S, SE and SW neighbours, so each crossing move is listed once.
**     glabel[] labels that small graph's components (a union-find over it,
**     flattened), and two cells are connected exactly when their sector
**     nodes have the same glabel.
**
** Where the cost is paid.  An edit (set_blocked) only marks: its sector
** for a new local labelling, and the borders whose crossing moves its
** change of the move masks can touch (the cell's and its neighbours'
** crossing moves) -- O(1), no labelling.  Most edits do not even mark the
** sector: when the cells around the edited one show that the sector's
** components stay as they were (sec_local), the edit writes the cell's
** label itself; when a closed cell cuts a small part off (a door shut on a
** room), the edit finds that part by a lockstep flood from the cut's
** sides and labels it apart (sec_split: O(the smaller side), at most
** S * S / 16 cells), marking only the sector's borders and graph.  The
** next question
** (connected, a search's unreachable early-out, would_disconnect,
** astar_topology_components_refresh) brings the marked sectors up to
** date: each marked sector once (S * S cells), the borders next to a
** sector whose labels changed (S cells each), and the sector graph
** (its nodes and pairs, about (w / S) * (h / S) times a few) only when a
** sector's components or a border's pairs changed -- a cell closed or
** opened inside a component leaves the graph alone.  So a question pays
** for the sectors edited since the last one, never for the map.  A new
** grid (all open, one component) holds no arrays; its first edit writes
** them as the grid was before it (every sector one component: its labels
** written, not flooded, and each border's one pair found at its first
** crossing move), O(cells) once, then applies itself as any edit does.
** The pairs of all borders sit in one dense pool (sec_place), so the
** sector graph's relabel reads them in one sweep.
** A sector that sec_local kept clean through S * S / 16 edits since its
** labels (a map loaded cell by cell) is marked instead: its relabel then
** costs no more than those edits did, and the question after a load pays
** each loaded sector once.  A map written at once (astar_grid_set_blocked_all:
** grid_from_string, maps.load, grid_from_table) marks nothing: its labels
** are built whole in that call (astar__sec_build_all), O(cells), and the
** question after it relabels nothing.
**
** A relabel (astar__sec_label) works on one block: each sector's labels are
** stored together (S * S in a row), and its moves are copied into a block
** of the same layout first, so the flood neither checks bounds nor walks S
** rows of the padded grid a row apart (rows a power of two bytes apart
** fall into the same few cache sets: a third of the time of a split on
** 2048 x 2048 went there).
*/
#include "sectors.h"

/*
** Gives sector s a chunk of room for `need` pairs (its pairs kept): at the
** pool's end, or, when the pool is full, after packing every sector's
** pairs into a new pool in sector order (each with room for two more;
** O(pairs + sectors), and only when the pool has run out: its room then
** doubles).  So the pool holds the pairs densely, a few bytes per
** border, and the sector graph's relabel reads them in one sweep.
*/
static int sec_place(astar_grid *gr, lat_sectors *c, int32_t s, int32_t need) {
  int32_t room = need + need / 2 + 2, t;
  if (room > c->pcap) room = c->pcap;
  if (need > room) room = need;
  if (c->pused + (size_t)room > c->pool) {
    size_t live = 0, at = 0, cap;
    sec_pair *np;
    for (t = 0; t < c->n; t++) live += (size_t)sec_npairs(c, t) + 2;
    cap = 2 * (live + (size_t)room);
    np = (sec_pair *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, cap * sizeof *np);
    if (np == NULL) return ASTAR_ENOMEM;
    for (t = 0; t < c->n; t++) {
      int32_t k = sec_npairs(c, t), r = t == s ? room : k + 2;
      if (k > 0) memcpy(np + at, c->pairs + c->poff[t], (size_t)k * sizeof *np);
      c->poff[t] = (int32_t)at;
      c->proom[t] = (uint16_t)r;
      at += (size_t)r;
    }
    astar__mem(gr->t.alloc, gr->t.ud, c->pairs, c->pool * sizeof *np, 0);
    c->pairs = np;
    c->pool = cap;
    c->pused = at;
    return ASTAR_OK;
  }
  t = sec_npairs(c, s);
  if (t > 0) memcpy(c->pairs + c->pused, c->pairs + c->poff[s], (size_t)t * sizeof(sec_pair));
  c->poff[s] = (int32_t)c->pused;
  c->proom[s] = (uint16_t)room;
  c->pused += (size_t)room;
  return ASTAR_OK;
}

/* ------------------------------------------------------------------------ */
/* the two levels                                                             */
/* ------------------------------------------------------------------------ */

/* Labels the components of sector s (into the hypothesis' scratch when it
** is the hypothesis' sector) by flood fill over the moves inside the
** sector; returns how many.  The sector's moves are first copied into one
** block laid out as its labels (lm, those leaving the sector taken out on
** its edge), so the flood reads and writes S * S contiguous cells with no
** bounds to check, not S rows of the padded grid a row apart (rows a
** power of two bytes apart share the same few cache sets). */
int32_t astar__sec_label(const astar_grid *gr, lat_sectors *c, const sec_hyp *h, int32_t s) {
  int32_t x0, y0, x1, y1, x, y, k = 0, rw, rh, i, top, S = (int32_t)sec_size(c);
  int32_t m = S - 1, all = S * S;
  unsigned char *lm = c->lm;
  uint16_t *lab;
  int hyp = h != NULL && s == h->s;
  sec_rect(gr, c, s, &x0, &y0, &x1, &y1);
  rw = x1 - x0;
  rh = y1 - y0;
  lab = hyp ? h->scr : c->label + ((size_t)s << (2 * c->shift));
  for (y = 0; y < S && h == NULL; y++) { /* as is: rows copied, edges cut by masks */
    const unsigned char *blk = gr->blocked + LAT_CELL(gr, x0, y0 + y);
    const unsigned char *mv = gr->moves + LAT_CELL(gr, x0, y0 + y);
    uint16_t *lr = lab + (y << c->shift);
    unsigned char *mr = lm + (y << c->shift);
    if (y >= rh) {
      memset(lr, 0xff, (size_t)S * sizeof *lr); /* LAB_NONE */
      memset(mr, 0, (size_t)S);
      continue;
    }
    for (x = 0; x < rw; x++) { /* a blocked cell's moves are none */
      mr[x] = mv[x];
      lr[x] = (uint16_t)(LAB_TODO | (blk[x] != 0)); /* LAB_NONE when blocked */
    }
    for (; x < S; x++) {
      lr[x] = LAB_NONE;
      mr[x] = 0;
    }
    mr[0] &= c->keep[lat_par(gr, 0, y)][0];
    mr[rw - 1] &= c->keep[lat_par(gr, rw - 1, y)][1];
    if (y == 0)
      for (x = 0; x < rw; x++) mr[x] &= c->keep[lat_par(gr, x, y)][2];
    if (y == rh - 1)
      for (x = 0; x < rw; x++) mr[x] &= c->keep[lat_par(gr, x, y)][3];
  }
  for (y = 0; y < S && h != NULL; y++) {
    const unsigned char *blk = gr->blocked + LAT_CELL(gr, x0, y0 + y);
    const unsigned char *mv = gr->moves + LAT_CELL(gr, x0, y0 + y);
    uint16_t *lr = lab + (y << c->shift);
    unsigned char *mr = lm + (y << c->shift);
    int edge = y == 0 || y == rh - 1;
    for (x = 0; x < S; x++) {
      if (y >= rh || x >= rw || blk[x]) {
        lr[x] = LAB_NONE;
        mr[x] = 0;
        continue;
      }
      lr[x] = LAB_TODO;
      mr[x] = mv[x];
      if (h != NULL) {
        int32_t p = LAT_CELL(gr, x0 + x, y0 + y);
        mr[x] = (unsigned char)sec_moves(gr, h, p);
        if (p == h->cell) lr[x] = LAB_NONE;
      }
      if (edge || x == 0 || x == rw - 1) { /* the moves that leave the sector */
        int par = lat_par(gr, x0 + x, y0 + y), d;
        for (d = 0; d < gr->ndir; d++) {
          int32_t vx = x + gr->ddx[par][d], vy = y + gr->ddy[par][d];
          if ((uint32_t)vx >= (uint32_t)rw || (uint32_t)vy >= (uint32_t)rh)
            mr[x] &= (unsigned char)~(1u << d);
        }
      }
    }
  }
  for (i = 0; i < all; i++) {
    if (lab[i] != LAB_TODO) continue;
    lab[i] = (uint16_t)k;
    top = 0;
    c->stack[top++] = i;
    while (top > 0) {
      int32_t v = c->stack[--top];
      /* S is even and x0, y0 multiples of S: the parity is the local one */
      const int32_t *off = c->loff[lat_par(gr, v & m, v >> c->shift)];
      unsigned mv = lm[v];
      int d;
      for (d = 0; mv != 0; d++, mv >>= 1) {
        uint16_t *l;
        if (!(mv & 1u)) continue;
        l = &lab[v + off[d]];
        if (*l != LAB_TODO) continue;
        *l = (uint16_t)k;
        c->stack[top++] = v + off[d];
      }
    }
    k++;
  }
  return k;
}

/* Lists the pairs of border b of sector s into out (room: its share of
** pcap), under the hypothesis h (NULL: as is).  Returns how many.  most:
** stop there (1: whether a move crosses, where labels are all 0). */
int32_t astar__sec_border(const astar_grid *gr, lat_sectors *c, const sec_hyp *h, int32_t s,
                          int b, sec_pair *out, int32_t most) {
  int32_t t = sec_across(c, s, b), x0, y0, x1, y1, x, y, n = 0, i, len;
  if (t < 0) return 0;
  sec_rect(gr, c, s, &x0, &y0, &x1, &y1);
  /* the cells facing t: the last column (E), the last row (S), a corner */
  len = b == B_E ? y1 - y0 : b == B_S ? x1 - x0
                                      : 1;
  for (i = 0; i < len && n < most; i++) {
    int par, d;
    unsigned mv;
    x = b == B_E || b == B_SE ? x1 - 1 : b == B_S ? x0 + i
                                                  : x0;
    y = b == B_E ? y0 + i : y1 - 1;
    mv = sec_moves(gr, h, LAT_CELL(gr, x, y));
    par = lat_par(gr, x, y);
    for (d = 0; mv != 0; d++, mv >>= 1) {
      int32_t vx, vy;
      sec_pair p;
      if (!(mv & 1u)) continue;
      vx = x + gr->ddx[par][d];
      vy = y + gr->ddy[par][d];
      if (sec_of(c, vx, vy) != t) continue;
      p.a = *sec_lab(c, h, s, x, y);
      p.b = *sec_lab(c, h, t, vx, vy);
      if (n > 0 && out[n - 1].a == p.a && out[n - 1].b == p.b) continue;
      if (n > 1 && out[n - 2].a == p.a && out[n - 2].b == p.b) continue;
      out[n++] = p;
      if (n == most) break;
    }
  }
  return n;
}

/* The sector graph's components into glabel: O(nodes + pairs). */
static int sec_regraph(astar_grid *gr, lat_sectors *c) {
  int32_t s, v, k, step[B_COUNT];
  int b;
  c->base[0] = 0;
  for (s = 0; s < c->n; s++) c->base[s + 1] = c->base[s] + c->ncomp[s];
  k = c->base[c->n];
  c->regraph_due = 1;
  if (astar__grow(gr->t.alloc, gr->t.ud, (void **)&c->glabel, &c->gcap, (size_t)k + 1,
                  sizeof(int32_t)))
    return ASTAR_ENOMEM;
  for (v = 0; v < k; v++) c->glabel[v] = v;
  /* a border with pairs has its neighbour: E, S, SE, SW are these steps */
  step[B_E] = 1;
  step[B_S] = c->sw;
  step[B_SE] = c->sw + 1;
  step[B_SW] = c->sw - 1;
  for (s = 0; s < c->n; s++) {
    const sec_pair *p = c->pairs + c->poff[s];
    int32_t bs = c->base[s];
    for (b = 0; b < B_COUNT; b++) {
      int32_t np = c->npairs[s * B_COUNT + b], i, bt;
      if (np == 0) continue;
      bt = c->base[s + step[b]];
      for (i = 0; i < np; i++) uf_join(c->glabel, bs + p[i].a, bt + p[i].b);
      p += np;
    }
  }
  for (v = 0; v < k; v++) c->glabel[v] = c->glabel[c->glabel[v]]; /* parents are smaller */
  c->regraphs++;
  c->regraph_due = 0;
  return ASTAR_OK;
}

/* Relabels sector s; 1 when its components changed (their number, or a
** cell open before and after that changed component). */
static int sec_relabel(astar_grid *gr, lat_sectors *c, int32_t s) {
  size_t all = sec_size(c) * sec_size(c), i;
  const uint16_t *lab = c->label + ((size_t)s << (2 * c->shift));
  int32_t k;
  int changed = 0;
  memcpy(c->old, lab, all * sizeof(uint16_t));
  k = astar__sec_label(gr, c, NULL, s);
  c->nlocal[s] = 0;
  c->relabels++;
  if (k != c->ncomp[s]) changed = 1;
  for (i = 0; i < all && !changed; i++)
    if (c->old[i] != lab[i] && c->old[i] != LAB_NONE && lab[i] != LAB_NONE) changed = 1;
  c->ncomp[s] = (uint16_t)k;
  return changed;
}

/* Rebuilds border b of sector s; 1 when its pairs changed, -1 out of
** memory (the border as it was). */
static int sec_rebuild(astar_grid *gr, lat_sectors *c, int32_t s, int b) {
  uint16_t *np = &c->npairs[s * B_COUNT + b];
  sec_pair *p = sec_pairs(c, s, b);
  int32_t before = *np, n, total, after;
  n = astar__sec_border(gr, c, NULL, s, b, c->tmp, c->pcap);
  if (n == before && memcmp(c->tmp, p, (size_t)n * sizeof *p) == 0) return 0;
  total = sec_npairs(c, s);
  if (total - before + n > c->proom[s]) {
    if (sec_place(gr, c, s, total - before + n) != ASTAR_OK) return -1;
    p = sec_pairs(c, s, b);
  }
  after = (int32_t)(p - (c->pairs + c->poff[s])) + before; /* the borders after b */
  memmove(p + n, p + before, (size_t)(total - after) * sizeof *p);
  memcpy(p, c->tmp, (size_t)n * sizeof *p);
  *np = (uint16_t)n;
  return 1;
}

/* Brings the marked sectors, their borders and the graph up to date. */
static int sec_update(astar_grid *gr, lat_sectors *c) {
  int32_t i, s;
  int b, regraph = c->regraph_due;
  /* local labels first: a sector whose components changed marks every
  ** border its labels appear in (the dirty list grows while read) */
  for (i = 0; i < c->ndirty; i++) {
    int32_t sx, sy;
    unsigned dm;
    s = c->dlist[i];
    dm = c->dirty[s];
    if (!(dm & (D_LOCAL | D_COMP))) continue;
    c->dirty[s] &= (unsigned char)~(D_LOCAL | D_COMP);
    if (!((dm & D_LOCAL) && sec_relabel(gr, c, s)) && !(dm & D_COMP)) continue;
    regraph = 1;
    sx = s % c->sw;
    sy = s / c->sw;
    sec_dirty(c, s, 2u << B_E | 2u << B_S | 2u << B_SE | 2u << B_SW);
    if (sx > 0) sec_dirty(c, s - 1, 2u << B_E);
    if (sy > 0) sec_dirty(c, s - c->sw, 2u << B_S);
    if (sx > 0 && sy > 0) sec_dirty(c, s - c->sw - 1, 2u << B_SE);
    if (sx + 1 < c->sw && sy > 0) sec_dirty(c, s - c->sw + 1, 2u << B_SW);
  }
  for (i = 0; i < c->ndirty; i++) {
    s = c->dlist[i];
    for (b = 0; b < B_COUNT; b++)
      if (c->dirty[s] >> (b + 1) & 1u) {
        int r = sec_rebuild(gr, c, s, b);
        if (r < 0) { /* the borders not rebuilt stay marked, the graph due */
          memmove(c->dlist, c->dlist + i, (size_t)(c->ndirty - i) * sizeof *c->dlist);
          c->ndirty -= i;
          c->regraph_due |= regraph;
          return ASTAR_ENOMEM;
        }
        regraph |= r;
        c->dirty[s] &= (unsigned char)~(2u << b);
      }
    c->dirty[s] = 0;
  }
  c->ndirty = 0;
  return regraph ? sec_regraph(gr, c) : ASTAR_OK; /* ENOMEM: due next time */
}

/* ------------------------------------------------------------------------ */
/* lifetime                                                                   */
/* ------------------------------------------------------------------------ */

static size_t sec_bytes_of(const lat_sectors *c) {
  size_t n = (size_t)c->n, k = sec_size(c);
  return sizeof *c + n * k * k * sizeof(uint16_t) + k * k + 2 * n * sizeof(uint16_t) +
         (n + 1) * sizeof(int32_t) + c->pool * sizeof(sec_pair) +
         n * (sizeof(int32_t) + sizeof(uint16_t)) +
         n * B_COUNT * sizeof(uint16_t) + n + n * sizeof(int32_t) +
         (c->gcap + c->ucap) * sizeof(int32_t) + k * k * (2 * sizeof(int32_t) + sizeof(uint16_t)) +
         3 * k * sizeof(sec_pair);
}

void astar__sec_free(astar_grid *gr) {
  lat_sectors *c = gr->sec;
  if (c == NULL) return;
  astar__release(gr->t.alloc, gr->t.ud, (void **)&c->glabel, &c->gcap, sizeof(int32_t));
  astar__release(gr->t.alloc, gr->t.ud, (void **)&c->uf, &c->ucap, sizeof(int32_t));
  {
    size_t n = (size_t)c->n, k = sec_size(c), cells = n * k * k;
    astar__mem(gr->t.alloc, gr->t.ud, c->label, cells * sizeof(uint16_t), 0);
    astar__mem(gr->t.alloc, gr->t.ud, c->lm, k * k, 0);
    astar__mem(gr->t.alloc, gr->t.ud, c->ncomp, n * sizeof(uint16_t), 0);
    astar__mem(gr->t.alloc, gr->t.ud, c->nlocal, n * sizeof(uint16_t), 0);
    astar__mem(gr->t.alloc, gr->t.ud, c->base, (n + 1) * sizeof(int32_t), 0);
    astar__mem(gr->t.alloc, gr->t.ud, c->pairs, c->pool * sizeof(sec_pair), 0);
    astar__mem(gr->t.alloc, gr->t.ud, c->poff, n * sizeof(int32_t), 0);
    astar__mem(gr->t.alloc, gr->t.ud, c->proom, n * sizeof(uint16_t), 0);
    astar__mem(gr->t.alloc, gr->t.ud, c->npairs, n * B_COUNT * sizeof(uint16_t), 0);
    astar__mem(gr->t.alloc, gr->t.ud, c->dirty, n, 0);
    astar__mem(gr->t.alloc, gr->t.ud, c->dlist, n * sizeof(int32_t), 0);
    astar__mem(gr->t.alloc, gr->t.ud, c->stack, 2 * k * k * sizeof(int32_t), 0);
    astar__mem(gr->t.alloc, gr->t.ud, c->old, k * k * sizeof(uint16_t), 0);
    astar__mem(gr->t.alloc, gr->t.ud, c->tmp, 3 * k * sizeof(sec_pair), 0);
  }
  astar__mem(gr->t.alloc, gr->t.ud, c, sizeof *c, 0);
  gr->sec = NULL;
}

/* The sector side for a grid: the power of two whose square first
** reaches its longer side (an edit relabels S * S cells and the sector
** graph has about w * h / S^2 nodes: the two balance near there; 32 on
** 512 x 512, 64 on 2048 x 2048: bench/edits.lua), 4 to 128 (local labels
** fit 16 bits). */
static int sec_shift_for(const astar_grid *gr) {
  int32_t side = gr->w > gr->h ? gr->w : gr->h;
  int shift = 2;
  while (shift < 7 && ((int64_t)1 << (2 * shift)) < side) shift++;
  return shift;
}

/* Builds every level from scratch: O(cells).  open: as the grid was
** when every cell was open (a new grid's first edit, before astar__sec_mark
** applies it): every sector one component, its labels written, not
** flooded (2 bytes a cell), and its borders listed (O(cells / S)). */
static int sec_build(astar_grid *gr, int open) {
  lat_sectors *c;
  size_t n, k, cells;
  int32_t s;
  int b, rc, par, d;
  if (gr->sec == NULL) {
    c = (lat_sectors *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, sizeof *c);
    if (c == NULL) return ASTAR_ENOMEM;
    memset(c, 0, sizeof *c);
    c->shift = sec_shift_for(gr);
    k = sec_size(c);
    c->sw = (gr->w + (int32_t)k - 1) >> c->shift;
    c->sh = (gr->h + (int32_t)k - 1) >> c->shift;
    c->n = c->sw * c->sh;
    c->pcap = 6 * (int32_t)k + 2;
    n = (size_t)c->n;
    cells = n * k * k; /* whole sectors, the edge ones too */
    gr->sec = c;
    for (par = 0; par < 2; par++)
      for (d = 0; d < gr->ndir; d++)
        c->loff[par][d] = (int32_t)gr->ddy[par][d] * (int32_t)k + gr->ddx[par][d];
    for (par = 0; par < 2; par++) {
      memset(c->keep[par], 0, sizeof c->keep[par]);
      for (d = 0; d < gr->ndir; d++) {
        unsigned bit = 1u << d;
        if (gr->ddx[par][d] >= 0) c->keep[par][0] |= (unsigned char)bit;
        if (gr->ddx[par][d] <= 0) c->keep[par][1] |= (unsigned char)bit;
        if (gr->ddy[par][d] >= 0) c->keep[par][2] |= (unsigned char)bit;
        if (gr->ddy[par][d] <= 0) c->keep[par][3] |= (unsigned char)bit;
      }
    }
    c->label = (uint16_t *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, cells * sizeof(uint16_t));
    c->lm = (unsigned char *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, k * k);
    c->ncomp = (uint16_t *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n * sizeof(uint16_t));
    c->nlocal = (uint16_t *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n * sizeof(uint16_t));
    c->base = (int32_t *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, (n + 1) * sizeof(int32_t));
    c->poff = (int32_t *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n * sizeof(int32_t));
    c->proom = (uint16_t *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n * sizeof(uint16_t));
    c->npairs =
        (uint16_t *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n * B_COUNT * sizeof(uint16_t));
    c->dirty = (unsigned char *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n);
    c->dlist = (int32_t *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n * sizeof(int32_t));
    c->stack = (int32_t *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, 2 * k * k * sizeof(int32_t));
    c->old = (uint16_t *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, k * k * sizeof(uint16_t));
    c->tmp = (sec_pair *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, 3 * k * sizeof(sec_pair));
    if (!c->label || !c->lm || !c->ncomp || !c->nlocal || !c->base || !c->poff || !c->proom ||
        !c->npairs || !c->dirty ||
        !c->dlist || !c->stack || !c->old || !c->tmp) {
      /* astar__sec_free frees by size: give the missing ones none */
      astar_alloc_fn f = gr->t.alloc;
      void *ud = gr->t.ud;
      astar__mem(f, ud, c->label, c->label ? cells * sizeof(uint16_t) : 0, 0);
      astar__mem(f, ud, c->lm, c->lm ? k * k : 0, 0);
      astar__mem(f, ud, c->ncomp, c->ncomp ? n * sizeof(uint16_t) : 0, 0);
      astar__mem(f, ud, c->nlocal, c->nlocal ? n * sizeof(uint16_t) : 0, 0);
      astar__mem(f, ud, c->base, c->base ? (n + 1) * sizeof(int32_t) : 0, 0);
      astar__mem(f, ud, c->poff, c->poff ? n * sizeof(int32_t) : 0, 0);
      astar__mem(f, ud, c->proom, c->proom ? n * sizeof(uint16_t) : 0, 0);
      astar__mem(f, ud, c->npairs, c->npairs ? n * B_COUNT * sizeof(uint16_t) : 0, 0);
      astar__mem(f, ud, c->dirty, c->dirty ? n : 0, 0);
      astar__mem(f, ud, c->dlist, c->dlist ? n * sizeof(int32_t) : 0, 0);
      astar__mem(f, ud, c->stack, c->stack ? 2 * k * k * sizeof(int32_t) : 0, 0);
      astar__mem(f, ud, c->old, c->old ? k * k * sizeof(uint16_t) : 0, 0);
      astar__mem(f, ud, c->tmp, c->tmp ? 3 * k * sizeof(sec_pair) : 0, 0);
      astar__mem(f, ud, c, sizeof *c, 0);
      gr->sec = NULL;
      return ASTAR_ENOMEM;
    }
    memset(c->dirty, 0, n);
  }
  c = gr->sec;
  c->ndirty = 0;
  memset(c->dirty, 0, (size_t)c->n);
  memset(c->nlocal, 0, (size_t)c->n * sizeof(uint16_t));
  for (s = 0; s < c->n && !open; s++) c->ncomp[s] = (uint16_t)astar__sec_label(gr, c, NULL, s);
  for (s = 0; s < c->n && open; s++) {
    int32_t x0, y0, x1, y1, y, K = (int32_t)sec_size(c);
    uint16_t *lab = c->label + ((size_t)s << (2 * c->shift));
    sec_rect(gr, c, s, &x0, &y0, &x1, &y1);
    for (y = 0; y < K; y++) { /* a rectangle: connected; LAB_NONE is all ones */
      int32_t in = y < y1 - y0 ? x1 - x0 : 0;
      memset(lab + y * K, 0, (size_t)in * sizeof *lab);
      memset(lab + y * K + in, 0xff, (size_t)(K - in) * sizeof *lab);
    }
    c->ncomp[s] = 1;
  }
  c->pused = 0; /* the pool filled in sector order, each with room for two more */
  for (s = 0; s < c->n; s++) {
    int32_t total = 0;
    c->poff[s] = (int32_t)c->pused;
    for (b = 0; b < B_COUNT; b++) {
      int32_t np = astar__sec_border(gr, c, NULL, s, b, c->tmp, open ? 1 : c->pcap);
      if (astar__grow(gr->t.alloc, gr->t.ud, (void **)&c->pairs, &c->pool,
                      c->pused + (size_t)(total + np + 2), sizeof(sec_pair)))
        return ASTAR_ENOMEM;
      memcpy(c->pairs + c->pused + total, c->tmp, (size_t)np * sizeof(sec_pair));
      c->npairs[s * B_COUNT + b] = (uint16_t)np;
      total += np;
    }
    c->proom[s] = (uint16_t)(total + 2);
    c->pused += (size_t)(total + 2);
  }
  if ((rc = sec_regraph(gr, c)) != ASTAR_OK) return rc;
  gr->t.comps.valid = 1;
  gr->t.comps.uniform = 0;
  gr->t.comps.relabels++;
  return ASTAR_OK;
}

/* ------------------------------------------------------------------------ */
/* what the lattice and the components call                                   */
/* ------------------------------------------------------------------------ */

/*
** Closing a cell left the n neighbours (nx, ny) of its component in sector
** s in more than one group (grp[i]: neighbour i's group, the index of its
** first member; joined by moves among the neighbours).  Floods from every
** group in lockstep, a cell of each group's own stack in turn, joining
** groups whose floods meet, and stops when at most one group still has
** cells to expand: every other group is a whole component of the sector,
** relabelled with a new label; the last one (or the first, when all
** finished) keeps the old label, as do the cells no flood reached.  So a
** split costs about its smaller side times the groups: a door closed on
** a room, a corridor cut near its end.  Past S * S / 16 cells visited (at
** least 64) it gives up (0: the sector is relabelled at the next question,
** as before):
** a lockstep visit costs two or three of the relabel's (the moves read
** from the grid's rows, not a block), and on 2048 x 2048 a cap of S * S / 4
** lost more on the large splits it abandoned than it won (bench/edits.lua,
** split + connected 0.075 against 0.060 ms).  Paid at the edit: 1, the
** sector marked D_COMP when its components changed, and the cells visited
** count into nlocal (a sixteenth each).
*/
static int sec_split(astar_grid *gr, lat_sectors *c, int32_t s, int n, const int32_t *nx,
                     const int32_t *ny, const int *grp) {
  int32_t x0, y0, x1, y1, rw, rh, tail = 0, t, S = (int32_t)sec_size(c), all = S * S;
  int32_t m = S - 1, *q = c->stack, *nxt = c->stack + all, head[LAT_MAXDIR];
  int up[LAT_MAXDIR], pend[LAT_MAXDIR], i, g = 0, live = 0, keep = -1, split = 0;
  uint16_t *mark = c->old, *lab = c->label + ((size_t)s << (2 * c->shift)), fresh[LAT_MAXDIR];
  sec_rect(gr, c, s, &x0, &y0, &x1, &y1);
  rw = x1 - x0;
  rh = y1 - y0;
  memset(mark, 0, (size_t)all * sizeof *mark);
  for (i = 0; i < n; i++) up[i] = i, pend[i] = 0, head[i] = -1;
  for (i = 0; i < n; i++) { /* each neighbour on its group's stack */
    int32_t v = (ny[i] - y0) << c->shift | (nx[i] - x0);
    mark[v] = (uint16_t)(grp[i] + 1);
    q[tail] = v;
    nxt[tail] = head[grp[i]];
    head[grp[i]] = tail++;
    if (pend[grp[i]]++ == 0) live++;
  }
  while (live > 1) {
    int32_t at, v, lx, ly;
    int a, par, d;
    unsigned mv;
    const int32_t *off;
    if (tail > (all > 1024 ? all / 16 : 64)) return 0; /* a large split */
    do g = g + 1 < n ? g + 1 : 0;
    while (head[g] < 0);
    at = head[g];
    head[g] = nxt[at];
    v = q[at];
    lx = v & m;
    ly = v >> c->shift;
    par = lat_par(gr, lx, ly);
    mv = gr->moves[LAT_CELL(gr, x0 + lx, y0 + ly)];
    off = c->loff[par];
    for (a = g; up[a] != a;) a = up[a];
    for (d = 0; mv != 0; d++, mv >>= 1) {
      int32_t w;
      int b;
      if (!(mv & 1u) || (uint32_t)(lx + gr->ddx[par][d]) >= (uint32_t)rw ||
          (uint32_t)(ly + gr->ddy[par][d]) >= (uint32_t)rh)
        continue;
      w = v + off[d];
      if (mark[w] == 0) {
        mark[w] = (uint16_t)(a + 1);
        q[tail] = w;
        nxt[tail] = head[g];
        head[g] = tail++;
        pend[a]++;
        continue;
      }
      for (b = mark[w] - 1; up[b] != b;) b = up[b];
      if (b == a) continue;
      if (pend[b] > 0) live--; /* two groups with cells to expand become one */
      if (b < a) {
        int t2 = a;
        a = b;
        b = t2;
      }
      up[b] = a;
      pend[a] += pend[b];
    }
    if (--pend[a] == 0) live--;
  }
  /* the groups are the neighbours i with grp[i] == i; the one that keeps
  ** the old label: the one still expanding, or the first; every other
  ** group's root a new component */
  for (i = 0; i < n; i++) {
    int r = i;
    while (up[r] != r) r = up[r];
    up[i] = r;
    fresh[i] = LAB_NONE;
  }
  for (i = 0; i < n && keep < 0; i++)
    if (grp[i] == i && up[i] == i && pend[i] > 0) keep = i;
  if (keep < 0) keep = up[0];
  for (i = 0; i < n; i++)
    if (grp[i] == i && up[i] == i && i != keep) {
      fresh[i] = c->ncomp[s]++;
      split = 1;
    }
  for (t = 0; t < tail && split; t++) {
    int r = up[mark[q[t]] - 1];
    if (fresh[r] != LAB_NONE) lab[q[t]] = fresh[r];
  }
  if (split) sec_dirty(c, s, D_COMP);
  t = tail / 16 + 1;
  c->nlocal[s] = (uint16_t)(c->nlocal[s] + (t < 0xffff - c->nlocal[s] ? t : 0xffff - c->nlocal[s]));
  return 1;
}

/*
** The common edit without a relabel of its sector, when the sector's
** labels are current: 1 when the change of (x, y) left the sector's
** partition as it was but for the cell, which then has its label.  The
** moves the change made or unmade inside the sector all join two cells
** among (x, y) and its neighbours there (a diagonal step's side cells are
** neighbours of both its ends), so:
**   closing: the cell's neighbours of its component in the sector, still
**            joined to one another by moves among themselves;
**   opening: the cell's moves into the sector, all to one component.
** O(neighbours^2); 0 (a relabel at the next question) otherwise.
*/
static int sec_local(astar_grid *gr, lat_sectors *c, int32_t x, int32_t y) {
  int32_t s = sec_of(c, x, y), p = LAT_CELL(gr, x, y);
  size_t id = sec_idx(c, x, y);
  int32_t nx[LAT_MAXDIR], ny[LAT_MAXDIR];
  int par = lat_par(gr, x, y), d, i, j, n = 0, up[LAT_MAXDIR];
  uint16_t mine = c->label[id];
  if (!gr->blocked[p]) { /* opened: one component among its moves */
    unsigned mv = gr->moves[p];
    uint16_t l = LAB_NONE;
    for (d = 0; mv != 0; d++, mv >>= 1) {
      int32_t vx = x + gr->ddx[par][d], vy = y + gr->ddy[par][d];
      uint16_t lv;
      if (!(mv & 1u) || sec_of(c, vx, vy) != s) continue;
      lv = c->label[sec_idx(c, vx, vy)];
      if (l != LAB_NONE && lv != l) return 0;
      l = lv;
    }
    if (l == LAB_NONE) return 0; /* a component of its own */
    c->label[id] = l;
    return 1;
  }
  /* closed: its component's cells around it, joined among themselves */
  for (d = 0; d < gr->ndir; d++) {
    int32_t vx = x + gr->ddx[par][d], vy = y + gr->ddy[par][d];
    if (!LAT_INSIDE(gr, vx, vy) || sec_of(c, vx, vy) != s || gr->blocked[LAT_CELL(gr, vx, vy)] ||
        c->label[sec_idx(c, vx, vy)] != mine)
      continue;
    nx[n] = vx;
    ny[n] = vy;
    up[n] = n;
    n++;
  }
  for (i = 0; i < n; i++) {
    int vpar = lat_par(gr, nx[i], ny[i]);
    unsigned mv = gr->moves[LAT_CELL(gr, nx[i], ny[i])];
    for (d = 0; mv != 0; d++, mv >>= 1) {
      int32_t wx = nx[i] + gr->ddx[vpar][d], wy = ny[i] + gr->ddy[vpar][d];
      if (!(mv & 1u)) continue;
      for (j = 0; j < n; j++)
        if (nx[j] == wx && ny[j] == wy) {
          int a = i, b = j;
          while (up[a] != a) a = up[a];
          while (up[b] != b) b = up[b];
          if (a != b) up[a > b ? a : b] = a < b ? a : b;
        }
    }
  }
  for (i = 0; i < n; i++) {
    int a = i;
    while (up[a] != a) a = up[a];
    up[i] = a;
  }
  for (i = 1; i < n && up[i] == 0; i++) continue;
  if (i < n && !sec_split(gr, c, s, n, nx, ny, up)) return 0;
  c->label[id] = (uint16_t)LAB_NONE;
  return 1;
}

/* Cell (x, y) changed its blocked bit: the marks (see the header). */
void astar__sec_mark(astar_grid *gr, int32_t x, int32_t y) {
  lat_sectors *c = gr->sec;
  int32_t cell[LAT_MAXDIR + 1][2];
  int i, n = 1, d, par;
  if (c == NULL && gr->t.comps.valid && gr->t.comps.uniform && gr->t.lock == 0 &&
      sec_build(gr, 1) == ASTAR_OK)
    c = gr->sec;                         /* the first edit: labelled as all open, then the edit */
  if (!gr->t.comps.valid || c == NULL) { /* nothing built: the next question builds */
    gr->t.comps.valid = gr->t.comps.uniform = 0;
    return;
  }
  {
    int32_t s = sec_of(c, x, y);
    /* a sector edited many times since its labels (a map being loaded)
    ** is marked: its relabel then costs less than the edits did */
    if (!(c->dirty[s] & D_LOCAL) &&
        (c->nlocal[s] >= (uint16_t)(sec_size(c) * sec_size(c) / 16) || !sec_local(gr, c, x, y)))
      sec_dirty(c, s, D_LOCAL);
    else if (!(c->dirty[s] & D_LOCAL))
      c->nlocal[s]++;
  }
  /* the moves that changed all join two cells among (x, y) and its
  ** neighbours: a border they cross is between two of those cells' sectors,
  ** none when the cell is two cells or more inside its sector */
  {
    int32_t m = (int32_t)sec_size(c) - 1, lx = x & m, ly = y & m;
    if (lx >= 2 && ly >= 2 && lx <= m - 2 && ly <= m - 2) return;
  }
  cell[0][0] = x;
  cell[0][1] = y;
  par = lat_par(gr, x, y);
  for (d = 0; d < gr->ndir; d++) {
    int32_t nx = x + gr->ddx[par][d], ny = y + gr->ddy[par][d];
    if (!LAT_INSIDE(gr, nx, ny)) continue;
    cell[n][0] = nx;
    cell[n++][1] = ny;
  }
  for (i = 0; i < n; i++) {
    int32_t ux = cell[i][0], uy = cell[i][1], su = sec_of(c, ux, uy);
    int upar = lat_par(gr, ux, uy);
    for (d = 0; d < gr->ndir; d++) {
      int32_t vx = ux + gr->ddx[upar][d], vy = uy + gr->ddy[upar][d], sv;
      if (!LAT_INSIDE(gr, vx, vy)) continue;
      sv = sec_of(c, vx, vy);
      if (sv != su) sec_mark_border(c, su, sv);
    }
  }
}

/* Every cell's blocked bit was written at once (astar_grid_set_blocked_all):
** the labels of every level built from the cells as they are, in this
** call, O(cells), with no sector left marked.  Out of memory, nothing is
** built and the next question builds (the labels are never wrong). */
void astar__sec_build_all(astar_grid *gr) {
  if (sec_build(gr, 0) != ASTAR_OK) gr->t.comps.valid = gr->t.comps.uniform = 0;
}

int astar__sec_refresh(astar_topology *t) {
  astar_grid *gr = (astar_grid *)t;
  if (t->comps.valid) return t->comps.uniform ? ASTAR_OK : sec_update(gr, gr->sec);
  return sec_build(gr, 0);
}

static int sec_current(const astar_topology *t) {
  const astar_grid *gr = (const astar_grid *)t;
  return t->comps.valid &&
         (t->comps.uniform || (gr->sec->ndirty == 0 && !gr->sec->regraph_due));
}

static int sec_connected(astar_topology *t, int32_t a, int32_t b) {
  astar_grid *gr = (astar_grid *)t;
  int32_t la;
  int rc = astar__sec_refresh(t);
  if (rc != ASTAR_OK) return rc;
  if (t->comps.uniform)
    return !gr->blocked[astar__lat_internal(t, a)] && !gr->blocked[astar__lat_internal(t, b)];
  la = sec_glabel(gr, gr->sec, a);
  return la >= 0 && la == sec_glabel(gr, gr->sec, b);
}

static size_t sec_bytes(const astar_topology *t) {
  const astar_grid *gr = (const astar_grid *)t;
  return gr->sec ? sec_bytes_of(gr->sec) : 0;
}

static void sec_free_topo(astar_topology *t) { astar__sec_free((astar_grid *)t); }

static uint32_t sec_count(const astar_topology *t, int which) {
  const astar_grid *gr = (const astar_grid *)t;
  if (gr->sec == NULL) return 0;
  return which ? gr->sec->regraphs : gr->sec->relabels;
}

const astar_conn_ops astar__lat_conn = {astar__sec_refresh, sec_current, sec_connected, sec_bytes,
                                        sec_free_topo, sec_count, astar__sec_would_disconnect};
