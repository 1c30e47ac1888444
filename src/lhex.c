/*
** lhex.c -- astar.Hex: hex grids of cells in offset coordinates (hex.c).
** Cells are named as on square grids -- (x, y), 1-based, or cell ids
** y * w + x + 1 -- and every grid method is lcells.c's.  What is the hex
** shape's own: its constructor and layout, hex distance, how its hexagons
** lie in the world frame and in text (offset rows), path lengths and field
** discs in its metric.  Included by lastar.c after lcells.c.
**
** World coordinates follow the guide's "size": cell_size is the hexagon's
** outer radius (centre to corner), so neighbouring centres are
** sqrt(3) * cell_size apart; origin is the top-left corner of the
** rectangle around the hexagons (as on square grids, where it is the
** top-left corner of cell (1, 1)).
*/

#define HEX_SQRT3 1.73205080756887729353

static const char *const layout_names[] = {
    [ASTAR_HEX_ODD_R] = "odd_r",
    [ASTAR_HEX_EVEN_R] = "even_r",
    [ASTAR_HEX_ODD_Q] = "odd_q",
    [ASTAR_HEX_EVEN_Q] = "even_q",
};

/* ------------------------------------------------------------------------ */
/* the picture                                                                */
/* ------------------------------------------------------------------------ */

static int rows_layout(int layout) { return layout == ASTAR_HEX_ODD_R || layout == ASTAR_HEX_EVEN_R; }

/* The unit centre (astar_hex_center) of the rectangle's left column ("r"
** layouts) or top row ("q" layouts): the smaller of the first two lines',
** as if a one-line grid had a second. */
static double hex_edge(int layout) {
  double a0, b0, a1, b1;
  astar_hex_center(layout, 0, 0, &a0, &b0);
  if (layout == ASTAR_HEX_ODD_R || layout == ASTAR_HEX_EVEN_R) {
    astar_hex_center(layout, 0, 1, &a1, &b1);
    return a0 < a1 ? a0 : a1;
  }
  astar_hex_center(layout, 1, 0, &a1, &b1);
  return b0 < b1 ? b0 : b1;
}

/* The centre of the cell's hexagon. */
static void hex_to_world(const astar_grid *gr, int32_t x, int32_t y, double size, double *wx,
                         double *wy) {
  int layout = astar_hex_layout(gr);
  double cx, cy, k = HEX_SQRT3 * size;
  astar_hex_center(layout, x, y, &cx, &cy);
  if (rows_layout(layout)) {
    *wx = (cx - hex_edge(layout)) * k + 0.5 * k;
    *wy = cy * k + size;
  } else {
    *wx = cx * k + size;
    *wy = (cy - hex_edge(layout)) * k + 0.5 * k;
  }
}

/* The cell whose hexagon holds the point. */
static int hex_to_cell(const astar_grid *gr, double wx, double wy, double size, int32_t *x,
                       int32_t *y) {
  int layout = astar_hex_layout(gr);
  double k = HEX_SQRT3 * size, px, py;
  if (rows_layout(layout)) {
    px = (wx - 0.5 * k) / k + hex_edge(layout);
    py = (wy - size) / k;
  } else {
    px = (wx - size) / k;
    py = (wy - 0.5 * k) / k + hex_edge(layout);
  }
  return astar_hex_cell_at(gr, px, py, x, y);
}

/* Cells two columns apart.  "r" layouts: a line per row, the shoved rows
** indented by one space.  "q" layouts: two lines per row, the upper columns
** of the row on the first, the shoved (lower) ones on the second. */
static void hex_text(luaL_Buffer *b, const astar_grid *gr, const char *cells, char *line) {
  int32_t w = astar_grid_width(gr), h = astar_grid_height(gr), x, y;
  int layout = astar_hex_layout(gr), columns = !rows_layout(layout);
  for (y = 0; y < h; y++) {
    int half;
    for (half = 0; half < (columns ? 2 : 1); half++) {
      size_t len = 0;
      int shoved = !columns && (layout == ASTAR_HEX_ODD_R ? (y & 1) : !(y & 1));
      if (shoved) line[len++] = ' ';
      for (x = 0; x < w; x++) {
        int lower = layout == ASTAR_HEX_ODD_Q ? (x & 1) : !(x & 1);
        char ch = cells[(size_t)y * (size_t)w + (size_t)x];
        if (columns && lower != half) ch = ' ';
        if (x > 0) line[len++] = ' ';
        line[len++] = ch;
      }
      while (len > 0 && line[len - 1] == ' ') len--;
      luaL_addlstring(b, line, len);
      luaL_addchar(b, '\n');
    }
  }
}

static const char *hex_detail(lua_State *L, const astar_grid *gr) {
  return lua_pushfstring(L, "layout %s", layout_names[astar_hex_layout(gr)]);
}

/* Discs are hexagons: every cell at most `radius` steps away, which the
** layout alone decides. */
static int hex_metric(const astar_grid *gr) { return astar_hex_layout(gr); }

static int hex_within(int layout, int32_t x0, int32_t y0, int32_t x, int32_t y, double radius) {
  int32_t q0, r0, q, r, dq, dr, ds;
  astar_hex_axial(layout, x0, y0, &q0, &r0);
  astar_hex_axial(layout, x, y, &q, &r);
  dq = q - q0;
  dr = r - r0;
  ds = dq + dr;
  if (dq < 0) dq = -dq;
  if (dr < 0) dr = -dr;
  if (ds < 0) ds = -ds;
  return (dq > dr ? (dq > ds ? dq : ds) : (dr > ds ? dr : ds)) <= radius;
}

/* Every step is one cell long (the distance between centres, in cells). */
static const lcells_ops hex_cells = {{1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0},
                                     hex_to_world,
                                     hex_to_cell,
                                     hex_text,
                                     hex_detail,
                                     hex_metric,
                                     hex_within};

static const ltopo_class hex_class = CELLS_CLASS(HEX_MT, "hex grid", &hex_cells);

/* ------------------------------------------------------------------------ */
/* construction, layout and distance                                          */
/* ------------------------------------------------------------------------ */

/* Reads { layout =, cell_size =, origin = } at arg: returns the layout
** (default odd_r) and the world frame into w[3]. */
static int hex_options(lua_State *L, int arg, double w[3]) {
  static const char *const own[] = {"layout"};
  int layout = ASTAR_HEX_ODD_R;
  if (cells_options(L, arg, own, COUNT_OF(own), w)) {
    lua_getfield(L, arg, "layout");
    if (!lua_isnil(L, -1))
      layout = check_choice(L, arg, lua_gettop(L), "layout", layout_names, COUNT_OF(layout_names),
                            "");
    lua_pop(L, 1);
  }
  return layout;
}

/* astar.hex(width, height [, { layout =, cell_size =, origin = }]) -> an
** open hex grid (odd_r by default). */
static int l_hex_new(lua_State *L) { return cells_new(L, &hex_class, hex_options, astar_hex_new); }

static int l_hex_layout(lua_State *L) {
  lua_pushstring(L, layout_names[astar_hex_layout(check_self(L)->grid)]);
  return 1;
}

/* hex:distance(x1, y1, x2, y2) -> the number of steps on open ground. */
static int l_hex_distance(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x0, y0, x1, y1;
  check_xy(L, T, 2, &x0, &y0);
  check_xy(L, T, 4, &x1, &y1);
  lua_pushinteger(L, astar_hex_distance(T->grid, x0, y0, x1, y1));
  return 1;
}
