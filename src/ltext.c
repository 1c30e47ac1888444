/*
** ltext.c -- grids from text: astar.grid_from_string (rows of characters,
** a legend for what each character means); the way back, grid:to_string,
** is every grid's (lcells.c), laid out by its shape.  Included by lastar.c.
**
** A map is measured before anything is made (row widths, blank lines, the
** size limits), so bad text costs no grid.  Each distinct character is
** resolved once, on its first occurrence, and remembered in a 256-entry
** table: a 4096 x 4096 map reads its legend a few dozen times, not 16
** million.  Tags are interned on first use too, so a legend may name tags
** its map never uses without filling the grid's tag table.
*/

/* How one map character becomes a cell. */
typedef struct cellspec {
  int known, blocked;
  double cost;
  int tag_ref; /* the tag name's key in the names table, 0: none */
  int32_t tag; /* its id, interned on first use; 0: not yet */
} cellspec;

/* Reads the legend entry at vidx for the character named `key` ("\"~\""):
** true / false (open / blocked), a number (open, that cost), a string
** (open, that tag) or a table { blocked =, cost =, tag = } whose own keys
** are only those (values read with lua_getfield, so __index defaults
** apply).  A tag name is kept in the table at tags (integer keys). */
static void read_cellspec(lua_State *L, int vidx, const char *key, int tags, cellspec *c) {
  static const char *const fields[] = {"blocked", "cost", "tag"};
  c->known = 1;
  c->blocked = 0;
  c->cost = 1;
  c->tag_ref = 0;
  c->tag = 0;
  switch (lua_type(L, vidx)) {
    case LUA_TBOOLEAN: c->blocked = !lua_toboolean(L, vidx); return;
    case LUA_TNUMBER:
      c->cost = lua_tonumber(L, vidx);
      if (c->cost >= 0 && isfinite(c->cost)) return;
      break;
    case LUA_TSTRING:
      lua_pushvalue(L, vidx);
      c->tag_ref = (int)compat_rawlen(L, tags) + 1;
      lua_rawseti(L, tags, c->tag_ref);
      return;
    case LUA_TTABLE: {
      int i;
      lua_pushnil(L);
      while (lua_next(L, vidx)) { /* its own keys */
        int ok = 0;
        lua_pop(L, 1);
        for (i = 0; i < 3 && !ok; i++)
          ok = lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), fields[i]) == 0;
        if (!ok)
          arg_error(L, 2, lua_pushfstring(L, "legend[%s] has an unknown field %s (expected "
                                             "blocked, cost or tag)",
                                          key, describe(L, -1)));
      }
      lua_getfield(L, vidx, "blocked");
      if (!lua_isnil(L, -1)) {
        if (lua_type(L, -1) != LUA_TBOOLEAN)
          arg_error(L, 2, lua_pushfstring(L, "legend[%s].blocked must be a boolean, got %s", key, describe(L, -1)));
        c->blocked = lua_toboolean(L, -1);
      }
      lua_getfield(L, vidx, "cost");
      if (!lua_isnil(L, -1)) {
        c->cost = lua_tonumber(L, -1);
        if (lua_type(L, -1) != LUA_TNUMBER || !(c->cost >= 0) || !isfinite(c->cost))
          arg_error(L, 2, lua_pushfstring(L, "legend[%s].cost must be a finite number >= 0, "
                                             "got %s",
                                          key, describe(L, -1)));
      }
      lua_getfield(L, vidx, "tag");
      if (!lua_isnil(L, -1)) {
        if (lua_type(L, -1) != LUA_TSTRING)
          arg_error(L, 2, lua_pushfstring(L, "legend[%s].tag must be a string (tag name), got %s", key, describe(L, -1)));
        c->tag_ref = (int)compat_rawlen(L, tags) + 1;
        lua_pushvalue(L, -1);
        lua_rawseti(L, tags, c->tag_ref);
      }
      lua_pop(L, 3);
      return;
    }
    default: break;
  }
  arg_error(L, 2, lua_pushfstring(L, "legend[%s] must be true, false, a cost, a tag name or { blocked =, cost =, tag = }, "
                                     "got %s",
                                  key, describe(L, vidx)));
}

/* The legend's entry for character ch (or "default"), read with
** lua_getfield; nil when it has none.  Pushes it. */
static void legend_entry(lua_State *L, int legend, int ch) {
  char k[2];
  if (!legend) {
    lua_pushnil(L);
    return;
  }
  if (ch < 0) {
    lua_getfield(L, legend, "default");
    return;
  }
  k[0] = (char)ch;
  k[1] = 0;
  lua_getfield(L, legend, k);
}

/* Measures the rows: every non-empty row has the same width; trailing blank
** lines are ignored, inner ones are not.  Raises on bad text. */
static void measure_rows(lua_State *L, const char *text, size_t len, int32_t *pw,
                         int32_t *ph) {
  size_t i, line_start = 0;
  int32_t w = -1, h = 0;
  for (i = 0; i <= len; i++) {
    if (i == len || text[i] == '\n') {
      size_t end = i;
      if (end > line_start && text[end - 1] == '\r') end--;
      if (end > line_start) {
        int32_t rw = (int32_t)(end - line_start > ASTAR_GRID_MAX_SIDE ? ASTAR_GRID_MAX_SIDE + 1
                                                                      : end - line_start);
        if (w >= 0 && rw != w)
          arg_error(L, 1, lua_pushfstring(L, "row %d has %d cells, row 1 has %d", (int)h + 1, (int)rw, (int)w));
        if (rw > ASTAR_GRID_MAX_SIDE || h == ASTAR_GRID_MAX_SIDE)
          arg_error(L, 1, "map too large (at most 65535 x 65535)");
        w = rw;
        h++;
      } else if (i < len) {
        /* a blank line: fine only if nothing but blank lines follow */
        size_t j;
        for (j = i; j < len && (text[j] == '\n' || text[j] == '\r'); j++) {}
        if (j < len && h > 0)
          arg_error(L, 1, lua_pushfstring(L, "blank line after row %d", (int)h));
      }
      line_start = i + 1;
    }
  }
  if (w <= 0) arg_error(L, 1, "no rows in the map");
  if ((double)w * h >= (double)(1 << 30))
    arg_error(L, 1, "map too large (width * height must be below 2^30)");
  *pw = w;
  *ph = h;
}

/*
** astar.grid_from_string(text [, legend [, opts]]) -> grid.  Rows are lines
** (LF or CRLF); '.' is open, '#' and '@' blocked unless the legend says
** otherwise; legend.default covers every other character it does not
** list.  The legend's own keys must be single characters or "default";
** each character of the text is looked up with lua_getfield the first time
** it occurs, so __index defaults apply.
*/
static int l_grid_from_string(lua_State *L) {
  /* stack: 1 text, 2 legend, 3 options, 4 tag names, 5 the grid */
  size_t len, i;
  const char *text;
  int32_t w, h, x, y;
  int diag, gidx, legend, tags;
  double world[3];
  cellspec spec[256], dflt, scratch;
  unsigned char *cells;
  ltopo *T;
  if (lua_type(L, 1) != LUA_TSTRING) type_error(L, 1, "string");
  text = lua_tolstring(L, 1, &len);
  lua_settop(L, 3);
  if (!lua_isnil(L, 2) && !lua_istable(L, 2)) type_error(L, 2, "table");
  legend = lua_istable(L, 2) ? 2 : 0;
  diag = square_options(L, 3, world);
  measure_rows(L, text, len, &w, &h);
  lua_newtable(L); /* tag names of the legend */
  tags = lua_gettop(L);
  if (legend) { /* its own entries, used or not */
    lua_pushnil(L);
    while (lua_next(L, legend)) {
      size_t kl;
      const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &kl) : NULL;
      int vidx = lua_gettop(L);
      if (k == NULL || (kl != 1 && strcmp(k, "default") != 0))
        arg_error(L, 2, lua_pushfstring(L, "legend keys must be single characters or \"default\", got %s", describe(L, -2)));
      read_cellspec(L, vidx, lua_pushfstring(L, "\"%s\"", k), tags, &scratch);
      lua_settop(L, vidx - 1);
    }
  }
  for (i = 0; i < 256; i++) spec[i].known = 0;
  legend_entry(L, legend, -1);
  dflt.known = 0;
  if (!lua_isnil(L, -1)) read_cellspec(L, lua_gettop(L), "\"default\"", tags, &dflt);
  lua_pop(L, 1);
  /* nothing else can fail on the text itself: make the grid */
  T = topo_new(L, &grid_class);
  gidx = lua_gettop(L);
  topo_attach(L, T, astar_grid_new(w, h, diag, state_alloc, get_state(L)));
  world_store(L, gidx, world[0], world[1], world[2]);
  path_mt_new(L, T, gidx);
  /* the blocked cells gathered here, then written at once: the labels are
  ** built once at the end (astar_grid_set_blocked_all), not marked cell by
  ** cell for the first question to relabel */
  cells = (unsigned char *)lua_newuserdata(L, (size_t)w * (size_t)h);
  memset(cells, 0, (size_t)w * (size_t)h);
  x = y = 0;
  for (i = 0; i < len && y < h; i++) {
    unsigned char ch = (unsigned char)text[i];
    cellspec *c = &spec[ch];
    /* CR only as part of a line end (CRLF, or a last CR): elsewhere it is an
    ** unknown character, not silently dropped */
    if (ch == '\r' && (i + 1 == len || text[i + 1] == '\n')) continue;
    if (ch == '\n') {
      if (x > 0) y++;
      x = 0;
      continue;
    }
    if (!c->known) { /* first occurrence: what is it? */
      legend_entry(L, legend, ch);
      if (!lua_isnil(L, -1)) {
        int vidx = lua_gettop(L);
        read_cellspec(L, vidx, lua_pushfstring(L, "\"%c\"", ch), tags, c);
        lua_pop(L, 1);
      } else if (ch == '.' || ch == '#' || ch == '@') {
        c->known = 1;
        c->blocked = ch != '.';
        c->cost = 1;
        c->tag_ref = 0;
        c->tag = 0;
      } else if (dflt.known) {
        *c = dflt;
      } else {
        char buf[8];
        if (ch >= 32 && ch < 127) snprintf(buf, sizeof buf, "'%c'", ch);
        else snprintf(buf, sizeof buf, "\\%d", ch);
        return arg_error(L, 1, lua_pushfstring(L, "unknown character %s at row %d, column %d (add it to the legend)", buf, (int)y + 1, (int)x + 1));
      }
      lua_pop(L, 1);
      if (c->tag_ref) { /* intern the tag on first use */
        lua_rawgeti(L, tags, c->tag_ref);
        c->tag = intern_tag(L, gidx, lua_gettop(L), grid_class.max_tag);
        lua_pop(L, 1);
      }
    }
    /* no Lua can reach the new grid yet: no finalizer or metamethod can
    ** close or change it between these calls */
    if (c->blocked) cells[(size_t)y * (size_t)w + (size_t)x] = 1;
    if (c->cost != 1) check_status(L, astar_grid_set_cost(T->grid, x, y, c->cost));
    if (c->tag) check_status(L, astar_grid_set_tag(T->grid, x, y, c->tag));
    x++;
  }
  check_status(L, astar_grid_set_blocked_all(T->grid, cells));
  lua_pushvalue(L, gidx);
  account(L, get_state(L));
  return 1;
}
