/*
** lattice.c -- what every grid does the same whatever its shape: cell
** storage and edits (blocked bits, the move masks, costs, tags, the change
** log, the component updates, the derived layers kept current), the cell
** questions that dispatch to the shape (line of sight, clearance,
** visibility), the topology operations every shape shares, sized units,
** and the repair of distance fields.  The layout is lattice.h's.
*/
#include <math.h>
#include <string.h>

#include "lattice.h"

#define GRID(t) ((astar_grid *)(t))
#define CGRID(t) ((const astar_grid *)(t))

/* ------------------------------------------------------------------------ */
/* storage                                                                    */
/* ------------------------------------------------------------------------ */

static size_t bits_words(const astar_grid *gr) { /* rows, cols, each with its stop bits */
  return (size_t)gr->ph * (size_t)gr->rs + (size_t)gr->pw * (size_t)gr->cs;
}

/* The rule (lattice.h: lat_rule_moves) for the open neighbours `open`,
** from the grid's data: tabulated once, at creation. */
static unsigned rule_of(const astar_grid *gr, unsigned open) {
  unsigned m = open & gr->straight, dm = open & gr->diag;
  int d;
  for (d = 0; d < LAT_MAXDIR; d++) {
    unsigned a, b;
    if (!(dm >> d & 1u)) continue;
    a = open >> gr->side[d][0] & 1u;
    b = open >> gr->side[d][1] & 1u;
    if (gr->rule == ASTAR_DIAG_NO_CORNER_CUTTING ? (a & b)
        : gr->rule == ASTAR_DIAG_ONE_OBSTACLE    ? (a | b)
                                                 : 1u)
      m |= 1u << d;
  }
  return m;
}

/* Recomputes the move mask of padded cell p from its neighbours.  Border
** cells are blocked: their mask is 0 and their neighbours are not read. */
static void update_moves(astar_grid *gr, int32_t p) {
  const unsigned char *b = gr->blocked;
  const int32_t *off;
  unsigned open = 0;
  int d;
  if (b[p]) {
    gr->moves[p] = 0;
    return;
  }
  off = gr->off[lat_par_of(gr, p)];
  for (d = 0; d < LAT_MAXDIR; d++) open |= (unsigned)!b[p + off[d]] << d; /* unrolled */
  gr->moves[p] = (unsigned char)lat_rule_moves(gr, open);                 /* reads only the shape's directions */
}

/* The move masks of rows y0..y1 - 1, every cell, in one pass: update_moves
** without the call and the parity's lookup per cell (a map's load). */
static void moves_rows(astar_grid *gr, int32_t y0, int32_t y1) {
  const unsigned char *b = gr->blocked;
  unsigned char *mv = gr->moves;
  int32_t x, y;
  for (y = y0; y < y1; y++) {
    int32_t row = LAT_CELL(gr, 0, y);
    if (!gr->par_x) { /* one parity along the row: direction by direction,
                      ** the row's open bits gathered in its masks */
      const int32_t *o = gr->off[lat_par(gr, 0, y)];
      const unsigned char *br = b + row;
      unsigned char *mr = mv + row;
      int d;
      memset(mr, 0, (size_t)gr->w);
      for (d = 0; d < LAT_MAXDIR; d++) {
        const unsigned char *bn = br + o[d];
        for (x = 0; x < gr->w; x++) mr[x] |= (unsigned char)((bn[x] == 0) << d);
      }
      for (x = 0; x < gr->w; x++) mr[x] = br[x] ? 0 : (unsigned char)lat_rule_moves(gr, mr[x]);
      continue;
    }
    for (x = 0; x < gr->w; x++) {
      int32_t p = row + x;
      const int32_t *o = gr->off[lat_par(gr, x, y)];
      unsigned open;
      if (b[p]) {
        mv[p] = 0;
        continue;
      }
      open = (unsigned)!b[p + o[0]] | (unsigned)!b[p + o[1]] << 1 | (unsigned)!b[p + o[2]] << 2 |
             (unsigned)!b[p + o[3]] << 3 | (unsigned)!b[p + o[4]] << 4 |
             (unsigned)!b[p + o[5]] << 5 | (unsigned)!b[p + o[6]] << 6 |
             (unsigned)!b[p + o[7]] << 7;
      mv[p] = (unsigned char)lat_rule_moves(gr, open);
    }
  }
}

/* Sets bits at..at + n - 1 of a line's open bits (words w). */
static void set_bit_run(uint64_t *w, int32_t at, int32_t n) {
  int32_t i = at, end = at + n;
  while (i < end) {
    int32_t lo = i & 63, hi = end - (i & ~63) < 64 ? end & 63 : 64; /* bits lo..hi - 1 */
    uint64_t m = (hi == 64 ? ~(uint64_t)0 : ((uint64_t)1 << hi) - 1) & (~(uint64_t)0 << lo);
    w[LAT_OPEN_W(i >> 6)] |= m;
    i = (i & ~63) + 64;
  }
}

/* Sets padded cell (x, y)'s bit in the row and column bit sets (the stop
** bits: the caller's). */
static void set_open_bit(astar_grid *gr, int32_t x, int32_t y, int open) {
  uint64_t *r = &gr->rows[(size_t)y * (size_t)gr->rs + LAT_OPEN_W(x >> 6)];
  uint64_t *c = &gr->cols[(size_t)x * (size_t)gr->cs + LAT_OPEN_W(y >> 6)];
  uint64_t rb = (uint64_t)1 << (x & 63), cb = (uint64_t)1 << (y & 63);
  if (open) {
    *r |= rb;
    *c |= cb;
  } else {
    *r &= ~rb;
    *c &= ~cb;
  }
}

astar_grid *astar__lat_new(const lat_shape *sh, const lat_geometry *geo, int32_t width,
                           int32_t height, astar_alloc_fn alloc, void *ud) {
  astar_grid *gr = (astar_grid *)astar__mem(alloc, ud, NULL, 0, sizeof *gr);
  size_t n;
  int32_t x, y;
  int par, d;
  if (gr == NULL) return NULL;
  memset(gr, 0, sizeof *gr);
  gr->t.ops = sh->ops;
  gr->t.alloc = alloc;
  gr->t.ud = ud;
  gr->shape = sh;
  gr->w = width;
  gr->h = height;
  gr->pw = width + 2;
  gr->ph = height + 2;
  lat_row_magic(gr->pw, &gr->row_m, &gr->row_s);
  gr->ndir = geo->ndir;
  gr->rule = geo->rule;
  gr->layout = geo->layout;
  gr->par_x = geo->par_x;
  gr->par_y = geo->par_y;
  gr->straight = geo->straight;
  gr->diag = geo->diag;
  memcpy(gr->side, geo->side, sizeof gr->side);
  for (d = 0; d < 256; d++) gr->moves_of[d] = (unsigned char)rule_of(gr, (unsigned)d);
  for (par = 0; par < 2; par++)
    for (d = 0; d < LAT_MAXDIR; d++) {
      int dx = geo->ddx[par][d], dy = geo->ddy[par][d];
      gr->ddx[par][d] = geo->ddx[par][d];
      gr->ddy[par][d] = geo->ddy[par][d];
      gr->off[par][d] = dy * gr->pw + dx;
      gr->ext[par][d] = dy * gr->w + dx;
      gr->npar[par][d] = (unsigned char)((par ^ ((dx & gr->par_x) | (dy & gr->par_y))) & 1);
    }
  n = (size_t)gr->pw * (size_t)gr->ph;
  gr->blocked = (unsigned char *)astar__mem(alloc, ud, NULL, 0, n);
  gr->moves = (unsigned char *)astar__mem(alloc, ud, NULL, 0, n);
  if (geo->bitsets) {
    gr->rw = (gr->pw + 63) / 64;
    gr->cw = (gr->ph + 63) / 64;
    gr->rs = LAT_GROUP * gr->rw;
    gr->cs = LAT_GROUP * gr->cw;
    gr->rows = (uint64_t *)astar__mem(alloc, ud, NULL, 0, bits_words(gr) * sizeof(uint64_t));
  }
  if (gr->blocked == NULL || gr->moves == NULL || (geo->bitsets && gr->rows == NULL)) {
    astar__mem(alloc, ud, gr->blocked, gr->blocked ? n : 0, 0);
    astar__mem(alloc, ud, gr->moves, gr->moves ? n : 0, 0);
    astar__mem(alloc, ud, gr->rows, gr->rows ? bits_words(gr) * sizeof(uint64_t) : 0, 0);
    astar__mem(alloc, ud, gr, sizeof *gr, 0);
    return NULL;
  }
  if (gr->rows) { /* one block: the rows' words, then the columns' */
    gr->cols = gr->rows + (size_t)gr->ph * (size_t)gr->rs;
    memset(gr->rows, 0, bits_words(gr) * sizeof(uint64_t));
  }
  /* the border is blocked, the inside open */
  memset(gr->blocked, 1, n);
  for (y = 0; y < height; y++) memset(gr->blocked + LAT_CELL(gr, 0, y), 0, (size_t)width);
  memset(gr->moves, 0, n);
  /* every cell open: the cells off the border have every move (the same
  ** mask on each parity: every neighbour open); the border's rows and
  ** columns are computed */
  if (height > 2 && width > 2) {
    unsigned char full = (unsigned char)lat_rule_moves(gr, 0xffu);
    for (y = 1; y + 1 < height; y++) memset(gr->moves + LAT_CELL(gr, 1, y), full, (size_t)width - 2);
    for (y = 1; y + 1 < height; y++) {
      update_moves(gr, LAT_CELL(gr, 0, y));
      update_moves(gr, LAT_CELL(gr, width - 1, y));
    }
    moves_rows(gr, 0, 1);
    moves_rows(gr, height - 1, height);
  } else {
    moves_rows(gr, 0, height);
  }
  if (gr->rows) { /* the open bits of every inside cell: padded 1..w, 1..h */
    for (y = 1; y <= height; y++) set_bit_run(gr->rows + (size_t)y * (size_t)gr->rs, 1, width);
    for (x = 1; x <= width; x++) set_bit_run(gr->cols + (size_t)x * (size_t)gr->cs, 1, height);
    astar__stop_build(gr);
  }
  /* all open: one component (every shape's straight steps join every
  ** cell) */
  astar__comp_uniform(&gr->t);
  return gr;
}

void astar_grid_free(astar_grid *gr) {
  size_t n;
  if (gr == NULL) return;
  n = (size_t)gr->pw * (size_t)gr->ph;
  astar__mem(gr->t.alloc, gr->t.ud, gr->blocked, n, 0);
  astar__mem(gr->t.alloc, gr->t.ud, gr->moves, n, 0);
  astar__mem(gr->t.alloc, gr->t.ud, gr->rows, gr->rows ? bits_words(gr) * sizeof(uint64_t) : 0,
             0);
  astar__mem(gr->t.alloc, gr->t.ud, gr->cost, gr->cost ? n * sizeof(double) : 0, 0);
  astar__mem(gr->t.alloc, gr->t.ud, gr->tag, gr->tag ? n * sizeof(uint16_t) : 0, 0);
  astar__mem(gr->t.alloc, gr->t.ud, gr->log, gr->log_cap * sizeof *gr->log, 0);
  astar__mem(gr->t.alloc, gr->t.ud, gr->clear, gr->clear ? n : 0, 0);
  astar__release(gr->t.alloc, gr->t.ud, (void **)&gr->scratch, &gr->scratch_cap,
                 sizeof(int32_t));
  astar__jump_free(gr);
  astar__ubits_free(gr);
  astar__comp_free(&gr->t);
  astar__mem(gr->t.alloc, gr->t.ud, gr, sizeof *gr, 0);
}

astar_topology *astar_grid_topology(astar_grid *gr) { return &gr->t; }

/* Every topology with ASTAR_CAN_CELLS is a lattice: its header is the
** grid's first member. */
astar_grid *astar_topology_grid(astar_topology *t) {
  return astar_topology_abilities(t) & ASTAR_CAN_CELLS ? (astar_grid *)t : NULL;
}
int32_t astar_grid_width(const astar_grid *gr) { return gr->w; }
int32_t astar_grid_height(const astar_grid *gr) { return gr->h; }

/* ------------------------------------------------------------------------ */
/* edits                                                                      */
/* ------------------------------------------------------------------------ */

/* A change to cell (x, y): a new version, and a line in the log.  Inside a
** batch (astar_grid_edits_begin) only the first change makes a version and
** the later ones share it, each with its own line in the log.  A later one
** still leaves the component labels behind (astar__comp_touch), exactly as
** a version of its own would: the edit path that follows keeps them
** current (astar__comp_kept) only if it merely added steps. */
static void note_change(astar_grid *gr, int32_t x, int32_t y) {
  if (gr->edits > 0 && gr->edits_versioned) {
    astar__comp_touch(&gr->t);
  } else {
    gr->t.version++;
    gr->edits_versioned = gr->edits > 0;
  }
  if (gr->log_cap > 0) {
    struct lat_change *e = &gr->log[gr->log_n++ % gr->log_cap];
    if (gr->log_n > gr->log_cap) gr->log_dropped = e->version;
    e->version = gr->t.version;
    e->cell = y * gr->w + x;
  }
}

int astar_grid_track_changes(astar_grid *gr, size_t cap) {
  if (cap <= gr->log_cap) return ASTAR_OK;
  /* a new ring starts empty: versions before it are simply not covered */
  astar__mem(gr->t.alloc, gr->t.ud, gr->log, gr->log_cap * sizeof *gr->log, 0);
  gr->log_cap = gr->log_n = 0;
  gr->log = (struct lat_change *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0,
                                            cap * sizeof *gr->log);
  if (gr->log == NULL) return ASTAR_ENOMEM;
  gr->log_cap = cap;
  return ASTAR_OK;
}

int astar_grid_changes(const astar_grid *gr, uint32_t since, int32_t *cells, size_t cap,
                       size_t *n) {
  uint32_t want = gr->t.version - since; /* versions (since, now]: modulo 2^32 */
  uint32_t at = gr->t.version;           /* the version the walk is in */
  size_t kept = gr->log_n < gr->log_cap ? gr->log_n : gr->log_cap, i, found = 0;
  int seen = 0; /* a line of version `at` was met */
  *n = 0;
  if (want == 0) return ASTAR_OK;
  if (want > kept) return ASTAR_EOVERFLOW; /* every version has a line at least */
  /* Newest first, the lines of versions now, now - 1, ... since + 1, each
  ** with one line or more (a batch's cells share its version); a version
  ** with none (made while the log was off, or before it) is a gap. */
  for (i = 0; i < kept; i++) {
    const struct lat_change *e = &gr->log[(gr->log_n - 1 - i) % gr->log_cap];
    if (gr->t.version - e->version >= want) break; /* since or older: all read */
    if (e->version != at) {
      if (!seen || e->version != at - 1) return ASTAR_EOVERFLOW;
      at--;
    }
    seen = 1;
    if (found == cap) return ASTAR_EOVERFLOW;
    cells[found++] = e->cell;
  }
  if (!seen || at != since + 1) return ASTAR_EOVERFLOW;
  /* the ring read to its end after dropping lines: version since + 1 had
  ** more when the last line dropped was of it (a batch's) */
  if (i == kept && gr->log_n > gr->log_cap && gr->log_dropped == since + 1)
    return ASTAR_EOVERFLOW;
  *n = found;
  return ASTAR_OK;
}

void astar_grid_edits_begin(astar_grid *gr) {
  if (gr->edits++ == 0) gr->edits_versioned = 0;
}

void astar_grid_edits_end(astar_grid *gr) {
  if (gr->edits > 0 && --gr->edits == 0) {
    gr->edits_versioned = 0;
    if (gr->jump_pending) astar__jump_flush(gr); /* the batch's repair, once */
  }
}

int astar_grid_set_blocked(astar_grid *gr, int32_t x, int32_t y, int blocked) {
  int32_t p;
  int par, d;
  if (gr->t.lock > 0) return ASTAR_EBUSY;
  if (!LAT_INSIDE(gr, x, y)) return ASTAR_EINVAL;
  blocked = blocked ? 1 : 0;
  p = LAT_CELL(gr, x, y);
  if (gr->blocked[p] == blocked) return ASTAR_OK; /* no change, no new version */
  gr->blocked[p] = (unsigned char)blocked;
  /* the masks that read p: its own and its neighbours' (a diagonal step's
  ** side cells are neighbours of both its ends) */
  par = lat_par(gr, x, y);
  update_moves(gr, p);
  for (d = 0; d < gr->ndir; d++) update_moves(gr, p + gr->off[par][d]);
  if (gr->rows) {
    set_open_bit(gr, x + 1, y + 1, !blocked);
    astar__stop_cell(gr, x + 1, y + 1);
  }
  if (gr->clear) gr->shape->clear_update(gr, x, y);
  if (gr->jump) { /* local: the runs through p; in a batch, at its end */
    if (gr->edits > 0) astar__jump_defer(gr);
    else astar__jump_update(gr, x, y);
  }
  note_change(gr, x, y);
  astar__sec_mark(gr, x, y); /* O(1): the next question updates the sector */
  return ASTAR_OK;
}

/*
** Every cell's blocked bit at once (a map being loaded).  The cells that
** change are written as a batch of set_blocked calls would write them
** (one version, a log line each, the bit sets), but the move masks are
** recomputed in one pass over the grid and the component labels built
** whole at the end, in this call: O(cells), no per-cell mark, and the
** next question relabels nothing.  A grid with derived layers (clearance,
** the jump table) repairs them cell by cell as set_blocked does (the jump
** table at the batch's end).
*/
int astar_grid_set_blocked_all(astar_grid *gr, const unsigned char *blocked) {
  int32_t x, y, changed = 0;
  int layers;
  if (gr->t.lock > 0) return ASTAR_EBUSY;
  if (blocked == NULL) return ASTAR_EINVAL;
  layers = gr->clear != NULL || gr->jump != NULL || gr->ubits != NULL;
  astar_grid_edits_begin(gr);
  for (y = 0; y < gr->h; y++) {
    const unsigned char *src = blocked + (size_t)y * (size_t)gr->w;
    for (x = 0; x < gr->w; x++) {
      int32_t p = LAT_CELL(gr, x, y);
      unsigned char b = (unsigned char)(src[x] != 0);
      int par, d;
      if (gr->blocked[p] == b) continue;
      gr->blocked[p] = b;
      changed++;
      if (gr->rows) set_open_bit(gr, x + 1, y + 1, !b);
      if (layers) { /* as set_blocked: the masks first, then what reads them */
        par = lat_par(gr, x, y);
        update_moves(gr, p);
        for (d = 0; d < gr->ndir; d++) update_moves(gr, p + gr->off[par][d]);
        if (gr->clear) gr->shape->clear_update(gr, x, y);
        if (gr->jump) astar__jump_defer(gr);
      }
      note_change(gr, x, y);
    }
  }
  if (changed > 0 && !layers) moves_rows(gr, 0, gr->h);
  if (changed > 0) astar__stop_build(gr); /* one pass, as the masks */
  if (changed > 0) astar__sec_build_all(gr);
  astar_grid_edits_end(gr);
  return ASTAR_OK;
}

int astar_grid_blocked(const astar_grid *gr, int32_t x, int32_t y) {
  if (!LAT_INSIDE(gr, x, y)) return ASTAR_EINVAL;
  return gr->blocked[LAT_CELL(gr, x, y)];
}

int astar_grid_set_cost(astar_grid *gr, int32_t x, int32_t y, double cost) {
  if (gr->t.lock > 0) return ASTAR_EBUSY;
  if (!LAT_INSIDE(gr, x, y) || !(cost >= 0) || !isfinite(cost)) return ASTAR_EINVAL;
  if (gr->cost == NULL) {
    size_t i, n = (size_t)gr->pw * (size_t)gr->ph;
    if (cost == 1.0) return ASTAR_OK; /* the layer would say the same */
    gr->cost = (double *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n * sizeof(double));
    if (gr->cost == NULL) return ASTAR_ENOMEM;
    for (i = 0; i < n; i++) gr->cost[i] = 1.0;
  }
  if (gr->cost[LAT_CELL(gr, x, y)] != cost) {
    gr->cost[LAT_CELL(gr, x, y)] = cost;
    note_change(gr, x, y);
    astar__comp_kept(&gr->t); /* costs do not cut */
  }
  return ASTAR_OK;
}

int astar_grid_cost(const astar_grid *gr, int32_t x, int32_t y, double *cost) {
  if (!LAT_INSIDE(gr, x, y)) return ASTAR_EINVAL;
  *cost = gr->cost ? gr->cost[LAT_CELL(gr, x, y)] : 1.0;
  return ASTAR_OK;
}

int astar_grid_set_tag(astar_grid *gr, int32_t x, int32_t y, int32_t tag) {
  if (gr->t.lock > 0) return ASTAR_EBUSY;
  if (!LAT_INSIDE(gr, x, y) || tag < 0 || tag > 65535) return ASTAR_EINVAL;
  if (gr->tag == NULL) {
    size_t n = (size_t)gr->pw * (size_t)gr->ph;
    if (tag == 0) return ASTAR_OK;
    gr->tag = (uint16_t *)astar__mem(gr->t.alloc, gr->t.ud, NULL, 0, n * sizeof(uint16_t));
    if (gr->tag == NULL) return ASTAR_ENOMEM;
    memset(gr->tag, 0, n * sizeof(uint16_t));
  }
  if (gr->tag[LAT_CELL(gr, x, y)] != tag) {
    gr->tag[LAT_CELL(gr, x, y)] = (uint16_t)tag;
    note_change(gr, x, y);
    astar__comp_kept(&gr->t);
  }
  return ASTAR_OK;
}

int astar_grid_tag(const astar_grid *gr, int32_t x, int32_t y, int32_t *tag) {
  if (!LAT_INSIDE(gr, x, y)) return ASTAR_EINVAL;
  *tag = gr->tag ? gr->tag[LAT_CELL(gr, x, y)] : 0;
  return ASTAR_OK;
}

int astar_grid_neighbours(const astar_grid *gr, int32_t x, int32_t y, int32_t *xy) {
  int par, d, n = 0;
  if (!LAT_INSIDE(gr, x, y)) return ASTAR_EINVAL;
  par = lat_par(gr, x, y);
  for (d = 0; d < gr->ndir; d++) {
    int32_t nx = x + gr->ddx[par][d], ny = y + gr->ddy[par][d];
    if (!LAT_INSIDE(gr, nx, ny)) continue;
    xy[2 * n] = nx;
    xy[2 * n + 1] = ny;
    n++;
  }
  return n;
}

/* ------------------------------------------------------------------------ */
/* questions the shape answers                                                */
/* ------------------------------------------------------------------------ */

int astar_grid_line_of_sight(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1,
                             int32_t y1) {
  if (!LAT_INSIDE(gr, x0, y0) || !LAT_INSIDE(gr, x1, y1)) return ASTAR_EINVAL;
  return gr->shape->sight(gr, x0, y0, x1, y1);
}

int astar_grid_line_of_sight_size(astar_grid *gr, int32_t x0, int32_t y0, int32_t x1,
                                  int32_t y1, int32_t size) {
  int rc;
  if (!LAT_INSIDE(gr, x0, y0) || !LAT_INSIDE(gr, x1, y1) || size < 1 || size > ASTAR_MAX_UNIT)
    return ASTAR_EINVAL;
  if (size == 1) return gr->shape->sight(gr, x0, y0, x1, y1);
  if ((rc = gr->shape->clear_build(gr)) != ASTAR_OK) return rc;
  return gr->shape->sight_unit(gr, x0, y0, x1, y1, size);
}

int astar_grid_clearance(astar_grid *gr, int32_t x, int32_t y) {
  int rc;
  if (!LAT_INSIDE(gr, x, y)) return ASTAR_EINVAL;
  if ((rc = gr->shape->clear_build(gr)) != ASTAR_OK) return rc;
  return gr->clear[LAT_CELL(gr, x, y)];
}

/* One line of sight per cell in the radius' bounding box (a cell within
** r of (x, y) is at most r columns and r rows off in either shape): the
** same rule as line_of_sight by construction. */
int astar_grid_visible_from(const astar_grid *gr, int32_t x, int32_t y, double radius,
                            double *out) {
  int32_t x0 = 0, y0 = 0, x1 = gr->w - 1, y1 = gr->h - 1, cx, cy;
  if (!LAT_INSIDE(gr, x, y) || isnan(radius)) return ASTAR_EINVAL;
  memset(out, 0, (size_t)gr->w * (size_t)gr->h * sizeof(double));
  if (radius >= 0 && radius < 4.0 * ASTAR_GRID_MAX_SIDE) {
    int32_t r = (int32_t)radius;
    if (x - r > x0) x0 = x - r;
    if (y - r > y0) y0 = y - r;
    if (x + r < x1) x1 = x + r;
    if (y + r < y1) y1 = y + r;
  } else if (radius >= 0) {
    radius = -1; /* larger than any grid: unlimited */
  }
  if (gr->blocked[LAT_CELL(gr, x, y)]) return ASTAR_OK;
  for (cy = y0; cy <= y1; cy++)
    for (cx = x0; cx <= x1; cx++) {
      if (radius >= 0 && !gr->shape->in_radius(gr, x, y, cx, cy, radius)) continue;
      if (gr->shape->sight(gr, x, y, cx, cy)) out[(size_t)cy * (size_t)gr->w + (size_t)cx] = 1.0;
    }
  return ASTAR_OK;
}

/* ------------------------------------------------------------------------ */
/* the topology operations every shape shares                                 */
/* ------------------------------------------------------------------------ */

int32_t astar__lat_count(const astar_topology *t) { return CGRID(t)->w * CGRID(t)->h; }
size_t astar__lat_span(const astar_topology *t) {
  return (size_t)CGRID(t)->pw * (size_t)CGRID(t)->ph;
}

int32_t astar__lat_internal(const astar_topology *t, int32_t c) {
  const astar_grid *gr = CGRID(t);
  return (c / gr->w + 1) * gr->pw + c % gr->w + 1;
}

int32_t astar__lat_external(const astar_topology *t, int32_t p) { return lat_ext(CGRID(t), p); }

/* A path's cells: the row of a cell found once, then followed (a step
** moves it by one at most; a jump finds it again), so a cell costs two
** comparisons and a subtraction, no division. */
void astar__lat_externals(const astar_topology *t, int32_t *ids, int32_t n) {
  const astar_grid *gr = CGRID(t);
  int32_t pw = gr->pw, dw = gr->pw - gr->w, i, y, lo = 0, hi = 0, base = 0;
  for (i = 0; i < n; i++) {
    int32_t p = ids[i];
    if (p < lo || p >= hi) { /* a step to the next row or the one before, or a jump */
      if (i > 0 && p >= hi && p < hi + pw) lo = hi, base += dw;
      else if (i > 0 && p < lo && p >= lo - pw) lo -= pw, base -= dw;
      else y = lat_row(gr, p), lo = y * pw, base = lo + 1 - (y - 1) * gr->w;
      hi = lo + pw; /* [lo, hi): the row's padded cells; base: padded - external */
    }
    ids[i] = p - base;
  }
}

int astar__lat_passable(const astar_topology *t, int32_t p) { return !CGRID(t)->blocked[p]; }
int32_t astar__lat_node_tag(const astar_topology *t, int32_t p) { return lat_tag(CGRID(t), p); }

int astar__lat_prepare(astar_topology *t, int reverse) {
  (void)t;
  (void)reverse;
  return ASTAR_OK;
}

/* The cell p was reached from by direction d: one step back from p. */
int32_t astar__lat_link_from(const astar_topology *t, int32_t p, int32_t d) {
  const astar_grid *gr = CGRID(t);
  return p + gr->off[lat_par_of(gr, p)][gr->shape->opp[d]];
}

int32_t astar__lat_link_to(const astar_topology *t, int32_t p, int32_t d) {
  const astar_grid *gr = CGRID(t);
  return p + gr->off[lat_par_of(gr, p)][d];
}

/* See graph_step_cost: the search accepted this step, query_step cannot
** fail here. */
int astar__lat_step_cost(const astar_search *s, int32_t p, int32_t d, double *c) {
  const astar_grid *gr = CGRID(s->topo);
  int32_t from, to;
  /* a query without modifiers prices a step at its base cost: a path's
  ** cost per cell, no ids */
  if (s->q.size <= 1 && query_steps_plain(s)) {
    *c = lat_base_cost(gr, gr->shape, p, d);
    return 1;
  }
  from = lat_ext(gr, astar__lat_link_from(s->topo, p, d));
  to = lat_ext(gr, p);
  if (s->q.size > 1)
    return lat_unit_cost((astar_search *)s, gr, gr->shape, from, p, to, lat_par_of(gr, p), d,
                         c) > 0;
  *c = lat_base_cost(gr, gr->shape, p, d);
  return query_step((astar_search *)s, from, to, d, lat_tag(gr, p), c, 0) > 0;
}

void astar__lat_each_step(const astar_topology *t, astar_step_visit visit, void *ctx) {
  const astar_grid *gr = CGRID(t);
  int32_t x, y, d;
  for (y = 0; y < gr->h; y++)
    for (x = 0; x < gr->w; x++) {
      int32_t p = LAT_CELL(gr, x, y), id = y * gr->w + x;
      int par = lat_par(gr, x, y);
      unsigned m = gr->moves[p];
      for (d = 0; d < gr->ndir; d++)
        if (m >> d & 1u)
          visit(ctx, id, id + gr->ext[par][d], lat_base_cost(gr, gr->shape, p + gr->off[par][d], d));
    }
}

/* The grid's part of the fast-path decision: every step costs its length. */
int astar__lat_plain(const astar_topology *t) { return CGRID(t)->cost == NULL; }

size_t astar__lat_bytes(const astar_topology *t) {
  const astar_grid *gr = CGRID(t);
  size_t n = (size_t)gr->pw * (size_t)gr->ph;
  return sizeof *gr + 2 * n + (gr->rows ? bits_words(gr) * sizeof(uint64_t) : 0) +
         (gr->cost ? n * sizeof(double) : 0) + (gr->tag ? n * sizeof(uint16_t) : 0) +
         (gr->clear ? n : 0) + gr->scratch_cap * sizeof(int32_t) +
         gr->log_cap * sizeof *gr->log + (gr->jump ? 8 * n * sizeof *gr->jump : 0) +
         astar__ubits_bytes(gr);
}

/* ------------------------------------------------------------------------ */
/* sized units                                                                */
/* ------------------------------------------------------------------------ */

/* Sized units need the clearance layer. */
static int unit_prepare(astar_topology *t) { return GRID(t)->shape->clear_build(GRID(t)); }

/* Lists the query's unit cells in the search (lattice.h: lat_foot) when
** something will read them: a filter that forbids (every cell of the unit
** is asked), or costs that vary by cell (the step's cost is the dearest).
** The list lives in the search, so a callback may longjmp out of it. */
static int unit_begin(astar_search *s) {
  const astar_grid *gr = CGRID(s->topo);
  int32_t n = gr->shape->unit_count(s->q.size);
  int par;
  s->nfoot = 0;
  if (!s->shuts && !gr->cost && !(gr->tag && s->q.tag_factor) && !s->q.penalty)
    return ASTAR_OK;
  if (astar__resize(s->alloc, s->ud, (void **)&s->foot, &s->foot_cap, 4 * (size_t)n,
                    sizeof(int32_t)))
    return ASTAR_ENOMEM;
  for (par = 0; par < 2; par++) {
    int32_t *pad = s->foot + (size_t)par * 2 * (size_t)n;
    gr->shape->unit_cells(gr, s->q.size, par, pad, pad + n);
  }
  s->nfoot = n;
  return ASTAR_OK;
}

static int unit_holds(const astar_search *s, int32_t p) {
  const astar_grid *gr = CGRID(s->topo);
  return lat_unit_fits(s, gr, p, lat_ext(gr, p), lat_par_of(gr, p));
}

const astar_unit_ops astar__lat_units = {unit_prepare, unit_begin, unit_holds};

/* ------------------------------------------------------------------------ */
/* repairing a distance field                                                 */
/* ------------------------------------------------------------------------ */

/* astar_node.pos of a node imported from an old field: reached, not open,
** and not closed either, so an improvement of any size is taken (a closed
** node takes only improvements above REOPEN_EPS; a fresh search would have
** taken this one while the node was open). */
#define POS_IMPORTED (-3)

/* The tree parent of reached padded cell p (-1 at a source). */
ASTAR_INLINE int32_t repair_parent(const astar_search *s, int32_t p) {
  int32_t d = *parent_at(s, p);
  if (d < 0) return -1;
  return s->reverse ? astar__lat_link_to(s->topo, p, d) : astar__lat_link_from(s->topo, p, d);
}

ASTAR_INLINE int repair_reached(const astar_search *s, int32_t p) {
  return node_seen(s, p);
}

/* Puts reached node p back on the open list at its g, to expand it again. */
ASTAR_INLINE int repair_reopen(astar_search *s, int32_t p) {
  if (!repair_reached(s, p) || node_at(s, p)->pos >= 0 || node_at(s, p)->pos == POS_NEXT)
    return ASTAR_OK;
  s->st.generated++;
  return heap_push(s, &s->open, p, node_at(s, p)->g, tie_key(s, 0.0), 0);
}

/* Resets reached cell p (it loses its route) and queues it; *n counts the
** queue.  Its parent link stays: its children are found by it. */
ASTAR_INLINE void repair_reset(astar_search *s, int32_t p, int32_t *queue, size_t *n) {
  node_at(s, p)->stamp = 0; /* never a live generation */
  node_at(s, p)->pos = POS_CLOSED;
  queue[(*n)++] = p;
}

/* Whether padded cell u is cell P or one of its neighbours. */
static int near_cell(const astar_grid *gr, int32_t P, int par, int32_t u) {
  int d;
  if (u == P) return 1;
  for (d = 0; d < gr->ndir; d++)
    if (u == P + gr->off[par][d]) return 1;
  return 0;
}

int astar_grid_repair_distances(astar_search *s, astar_grid *gr, const int32_t *sources,
                                size_t nsources, int reverse, const astar_query *q,
                                const double *dist, const signed char *link,
                                const int32_t *changed, size_t nchanged) {
  int32_t n = gr->w * gr->h, x, y, *queue;
  size_t span = (size_t)gr->pw * (size_t)gr->ph, k, head, ndirty = 0, nreached = 0;
  int rc;
  /* a cost callback's costs are not logged */
  if (q->cost_fn != NULL) return ASTAR_EINVAL;
  for (k = 0; k < nsources; k++)
    if (sources[k] < 0 || sources[k] >= n) return ASTAR_EINVAL;
  for (k = 0; k < nchanged; k++)
    if (changed[k] < 0 || changed[k] >= n) return ASTAR_EINVAL;
  /* an empty distance search: its state is filled in below */
  if ((rc = astar_search_begin_distances(s, &gr->t, sources, 0, reverse, q)) != ASTAR_OK)
    return rc;
  s->status = ASTAR_ESTATE; /* until the state is complete */
  /* the queue of reset cells, in the search's id scratch (each cell is
  ** reset at most once: a reset cell is no longer reached) */
  if (astar__resize(s->alloc, s->ud, (void **)&s->ids, &s->ids_cap, span, sizeof(int32_t)))
    return ASTAR_ENOMEM;
  queue = s->ids;
  /* 1. the old field, as a finished search's state */
  for (y = 0; y < gr->h; y++) {
    const double *dr = dist + (size_t)y * (size_t)gr->w;
    const signed char *lr = link + (size_t)y * (size_t)gr->w;
    for (x = 0; x < gr->w; x++) {
      int32_t p = LAT_CELL(gr, x, y);
      astar_page *pg;
      astar_node *nd;
      if (!(dr[x] < HUGE_VAL)) continue;
      if ((pg = page_touch(s, p, 0)) == NULL) return ASTAR_ENOMEM;
      nd = &pg->ns[p & ASTAR_PAGE_MASK];
      nd->g = dr[x];
      nd->stamp = s->gen;
      nd->pos = POS_IMPORTED;
      pg->parent[p & ASTAR_PAGE_MASK] = lr[x];
      nreached++;
    }
  }
  if (q->size > 1) {
    /* a sized unit's steps depend on the cells of the unit, further than
    ** a neighbour away: the running search's repair (repair.c) resets by
    ** the unit's box, from the imported state as from a search it ran */
    s->status = ASTAR_SEARCHING;
    s->st.generated = nreached;
    return astar_search_repair(s, changed, nchanged, q, sources, nsources, NULL);
  }
  /* 2. the steps an edit can change: a step between two cells is decided by
  ** the two cells and, for a diagonal, its two side cells -- all among the
  ** edited cell and its neighbours.  Every reached cell there whose tree
  ** step starts there too may have lost its route (the edited cell itself
  ** always: it may be blocked now) */
  for (k = 0; k < nchanged; k++) {
    int32_t cx = changed[k] % gr->w, cy = changed[k] / gr->w, P = LAT_CELL(gr, cx, cy), u;
    int par = lat_par(gr, cx, cy), d;
    if (repair_reached(s, P)) repair_reset(s, P, queue, &ndirty);
    for (d = 0; d < gr->ndir; d++) {
      int32_t v = P + gr->off[par][d];
      if (!repair_reached(s, v) || (u = repair_parent(s, v)) < 0) continue;
      if (near_cell(gr, P, par, u)) repair_reset(s, v, queue, &ndirty);
    }
  }
  /* 3. ... and so has every cell whose route passes one of them: the
  ** subtrees, found through the children (a cell's children are among its
  ** neighbours, and name it as their parent) */
  for (head = 0; head < ndirty; head++) {
    int32_t v = queue[head];
    int par = lat_par_of(gr, v), d;
    /* most of the field hangs on the edits (beside a source): computing it
    ** afresh costs less than resetting and relaxing it again */
    if (ndirty > nreached / 2 + 64) return ASTAR_EINVAL;
    for (d = 0; d < gr->ndir; d++) {
      int32_t u = v + gr->off[par][d];
      if (repair_reached(s, u) && repair_parent(s, u) == v) repair_reset(s, u, queue, &ndirty);
    }
  }
  s->status = ASTAR_SEARCHING;
  /* 4. what the search starts from: the sources it lacks (reset, or opened
  ** since), every reached cell beside a reset one (the boundary the reset
  ** region is re-relaxed from), and the reached cells around each edit (an
  ** opened cell, a cheaper one or a newly allowed diagonal relaxes outward
  ** from there) */
  for (k = 0; k < nsources; k++) {
    int32_t p = astar__lat_internal(&gr->t, sources[k]);
    if (repair_reached(s, p) || gr->blocked[p] ||
        (s->shuts && filter_forbids(&s->q, sources[k], lat_tag(gr, p))))
      continue;
    rc = relax_impl(s, p, sources[k], -1, 0.0, 0.0, 0, 0, 0, lat_zero_h);
    if (rc != ASTAR_OK) return s->status = rc;
  }
  for (k = 0; k < ndirty; k++) {
    int par = lat_par_of(gr, queue[k]), d;
    for (d = 0; d < gr->ndir; d++)
      if ((rc = repair_reopen(s, queue[k] + gr->off[par][d])) != ASTAR_OK) return s->status = rc;
  }
  for (k = 0; k < nchanged; k++) {
    int32_t cx = changed[k] % gr->w, cy = changed[k] / gr->w, P = LAT_CELL(gr, cx, cy);
    int par = lat_par(gr, cx, cy), d;
    if ((rc = repair_reopen(s, P)) != ASTAR_OK) return s->status = rc;
    for (d = 0; d < gr->ndir; d++)
      if ((rc = repair_reopen(s, P + gr->off[par][d])) != ASTAR_OK) return s->status = rc;
  }
  return ASTAR_OK;
}

int astar_grid_export_distances(const astar_search *s, const astar_grid *gr, double *dist,
                                int32_t *next, signed char *link) {
  int32_t x, y;
  if (s->status != ASTAR_FOUND || s->topo != &gr->t || s->goal != -1) return ASTAR_ESTATE;
  for (y = 0; y < gr->h; y++) {
    size_t row = (size_t)y * (size_t)gr->w;
    int32_t p0 = LAT_CELL(gr, 0, y);
    for (x = 0; x < gr->w; x++) {
      int32_t p = p0 + x, d;
      size_t c = row + (size_t)x;
      const astar_node *nd;
      if (!node_seen(s, p)) {
        dist[c] = HUGE_VAL;
        next[c] = -1;
        link[c] = -1;
        continue;
      }
      nd = node_at(s, p);
      if (nd->pos == POS_IMPORTED) continue; /* a repair left it as it was */
      d = *parent_at(s, p);
      dist[c] = nd->g;
      link[c] = (signed char)d;
      /* the tree parent (repair_parent), from coordinates at hand */
      next[c] = d < 0 ? -1
                      : (int32_t)c + gr->ext[lat_par(gr, x, y)][s->reverse ? d : gr->shape->opp[d]];
    }
  }
  return ASTAR_OK;
}

/* ------------------------------------------------------------------------ */
/* one step of a cell path, asked                                             */
/* ------------------------------------------------------------------------ */

/* Whether q's unit may stand at cell (x, y): ASTAR_STEP_OK, or the fault
** with *cell the cell to blame (-1: the unit leaves the grid), looking for
** blocked cells first, then forbidden ones (filter.h: the forbid field,
** then a tag that forbids).  The unit's cells lie within k - 1 columns and
** rows of its cell in every shape; the shape says which (in_unit). */
static int unit_fault(const astar_grid *gr, const astar_query *q, int32_t x, int32_t y,
                      int32_t *cell) {
  int32_t k = q && q->size > 1 ? q->size : 1, cx, cy;
  int pass;
  for (pass = 0; pass < 3; pass++)
    for (cy = y - (k - 1); cy <= y + (k - 1); cy++)
      for (cx = x - (k - 1); cx <= x + (k - 1); cx++) {
        int32_t id = cy * gr->w + cx, p;
        if (k > 1 && !gr->shape->in_unit(gr, x, y, k, cx, cy)) continue;
        if (!LAT_INSIDE(gr, cx, cy)) {
          *cell = -1;
          return ASTAR_STEP_BLOCKED;
        }
        p = LAT_CELL(gr, cx, cy);
        *cell = id;
        if (pass == 0 && gr->blocked[p]) return ASTAR_STEP_BLOCKED;
        if (pass == 1 && q && filter_field_forbids(q->forbid, id)) return ASTAR_STEP_FORBIDDEN;
        if (pass == 2 && q && filter_tag_forbids(q, lat_tag(gr, p))) return ASTAR_STEP_TAG;
      }
  *cell = -1;
  return ASTAR_STEP_OK;
}

/*
** The search's move rule asked of one step: where the unit lands, then the
** geometry (a step of the neighbourhood; one the shape has but the rule
** never takes, a square grid's diagonal under "never", is its own fault),
** then the rule with the side positions read as open where the unit may
** stand, as the expansions read them (lattice.h: lat_unit_moves).
*/
int astar_grid_step_fault(const astar_grid *gr, const astar_query *q, int32_t from,
                          int32_t to, int32_t *cell) {
  int32_t n = gr->w * gr->h, tx, ty, fx, fy, c = -1;
  int fault, par, d, k;
  unsigned open;
  if (cell) *cell = -1;
  if (to < 0 || to >= n || from < -1 || from >= n) return ASTAR_EINVAL;
  tx = to % gr->w;
  ty = to / gr->w;
  fault = unit_fault(gr, q, tx, ty, &c);
  if (cell) *cell = c;
  if (fault != ASTAR_STEP_OK || from < 0) return fault;
  if (from == to) return ASTAR_STEP_SAME;
  fx = from % gr->w;
  fy = from / gr->w;
  par = lat_par(gr, fx, fy);
  for (d = 0; d < LAT_MAXDIR; d++)
    if (fx + gr->ddx[par][d] == tx && fy + gr->ddy[par][d] == ty) break;
  if (d == LAT_MAXDIR) return ASTAR_STEP_FAR;
  if (d >= gr->ndir) return ASTAR_STEP_DIAGONAL;
  open = 1u << d;
  for (k = 0; k < 2 && (gr->diag >> d & 1u); k++) {
    int s = gr->side[d][k];
    if (unit_fault(gr, q, fx + gr->ddx[par][s], fy + gr->ddy[par][s], &c) == ASTAR_STEP_OK)
      open |= 1u << s;
  }
  return lat_rule_moves(gr, open) >> d & 1u ? ASTAR_STEP_OK : ASTAR_STEP_CORNER;
}
