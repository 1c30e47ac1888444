--- astar.pure.grid (internal): the pure-Lua backend's square grid.
--
-- Cells live in flat arrays over a padded lattice: a border of blocked
-- cells around the grid, so a neighbour is always p + offset and never out
-- of bounds.  Padded index p = y * pw + x + 1 (x in 0..w+1, y in 0..h+1,
-- pw = w + 2); the cell id the API speaks is (y - 1) * w + x.
--   open[p]   true for an open cell inside the grid (false: blocked or border)
--   cost[p]   the cost layer, absent until set_cost sets a cost other than 1
--   tag[p]    tag numbers (0: none), absent until the first set_tag;
--             tagnames[i] the name of tag i, tagid[name] its number
--   comp[p]   component labels (lazily rebuilt after a cell closes)
-- ver (grid:version()) grows with every change (queries, distance fields,
-- components, planners); the change log holds the last LOG lines (version,
-- padded index) in a ring: lv[i], lp[i] for line i (1..LOG), log_n lines
-- written ever, dropped the version of the last line the ring overwrote.
-- luacheck: ignore 581 (not (a < b) on purpose: NaN compares false both ways)
local U = require("astar.pure.util")
local describe = U.describe
local argerr, raise = U.argerr, U.raise
local floor, sqrt, huge = math.floor, math.sqrt, math.huge

local M = {}

local DIAGONAL = floor(sqrt(2) * 2 ^ 32 + 0.5) / 2 ^ 32
M.DIAGONAL = DIAGONAL

local RULES = { "never", "no_corner_cutting", "one_obstacle", "always" }
M.RULES = RULES

local Grid = {}
Grid.__index = Grid
Grid.__name = "astar.Grid"
M.Grid = Grid

local function is_grid(g) return getmetatable(g) == Grid end
M.is_grid = is_grid

--- check(g, fname): the grid argument, open
local function check(g, fname)
  if getmetatable(g) ~= Grid then
    argerr(fname, 1, ("astar.Grid expected, got %s"):format(g == nil and "nil" or U.dtype(g)))
  end
  if g.closed then raise("attempt to use a closed grid") end
  return g
end
M.check = check

local function check_mutable(g, fname)
  check(g, fname)
  if g.busy > 0 then raise(("cannot call '%s': grid is being searched"):format(fname)) end
  return g
end
M.check_mutable = check_mutable

--- cell(g, fname, arg, x, y, nargs) -> padded index (arg: x's argument number, self counted)
local function cell(g, fname, arg, x, y, nargs)
  if type(x) ~= "number" then U.type_error(fname, arg, "number", x, true, nargs and arg > nargs) end
  if x ~= floor(x) or x < 1 or x > g.w then
    argerr(fname, arg, ("x must be an integer in 1..%d, got %s"):format(g.w, describe(x)), true)
  end
  if type(y) ~= "number" then U.type_error(fname, arg + 1, "number", y, true, nargs and arg + 1 > nargs) end
  if y ~= floor(y) or y < 1 or y > g.h then
    argerr(fname, arg + 1, ("y must be an integer in 1..%d, got %s"):format(g.h, describe(y)), true)
  end
  return y * g.pw + x + 1
end
M.cell = cell

-- the neighbour offsets of a padded lattice of row pitch pw, in the native
-- direction order: E, W, S, N, SE, NE, SW, NW
function M.offsets(pw)
  return { 1, -1, pw, -pw, pw + 1, -pw + 1, pw - 1, -pw - 1 },
    { 1, -1, 0, 0, 1, 1, -1, -1 }, { 0, 0, 1, -1, 1, -1, 1, -1 }
end

local WORLD_KEYS = { diagonal = true, cell_size = true, origin = true }

-- grid options: { diagonal =, cell_size =, origin = }
local function read_options(fname, arg, opts)
  local rule, size, ox, oy = 2, 1, 0, 0
  if opts == nil then return rule, size, ox, oy end
  if type(opts) ~= "table" then U.type_error(fname, arg, "table", opts) end
  for k in pairs(opts) do
    if type(k) ~= "string" or not WORLD_KEYS[k] then argerr(fname, arg, ("unknown option %s"):format(describe(k))) end
  end
  local d = opts.diagonal
  if d ~= nil then rule = U.choice(fname, arg, d, "diagonal", RULES) end
  local s = opts.cell_size
  if s ~= nil then
    if type(s) ~= "number" or not (s > 0) or s == huge then
      argerr(fname, arg, ("cell_size must be a finite number > 0, got %s"):format(describe(s)))
    end
    size = s
  end
  local o = opts.origin
  if o ~= nil then
    local ok = type(o) == "table"
    if ok then
      for k in pairs(o) do
        if k ~= 1 and k ~= 2 then
          argerr(fname, arg, ("origin must be a table {x, y} of two finite numbers, got a table with key %s")
            :format(describe(k)))
        end
      end
    else
      argerr(fname, arg, ("origin must be a table {x, y} of two finite numbers, got %s"):format(describe(o)))
    end
    for i = 1, 2 do
      local v = rawget(o, i)
      if type(v) ~= "number" or not U.isfinite(v) then
        argerr(fname, arg, ("origin[%d] must be a finite number, got %s"):format(i, describe(v)))
      end
    end
    ox, oy = rawget(o, 1), rawget(o, 2)
  end
  return rule, size, ox, oy
end

local function new_grid(w, h, rule, size, ox, oy)
  local pw = w + 2
  local n = pw * (h + 2)
  local open = {}
  for p = 1, n do open[p] = false end
  for y = 1, h do
    local base = y * pw + 1
    for x = 1, w do open[base + x] = true end
  end
  local g = setmetatable({
    w = w, h = h, pw = pw, n = n, open = open, rule = rule,
    cell_size = size, ox = ox, oy = oy, ver = 0, busy = 0, closed = false,
    lv = {}, lp = {}, log_n = 0, dropped = 0, batch = nil,
    tagnames = {}, tagid = {}, comp = nil, comp_version = -1,
  }, Grid)
  return g
end

local function check_size(fname, w, h, nargs)
  U.range(fname, 1, w, "width", 1, 65535, false, nargs)
  U.range(fname, 2, h, "height", 1, 65535, false, nargs)
  if w * h >= 2 ^ 30 then argerr(fname, 2, "grid too large (width * height must be below 2^30)") end
end

function M.grid(...)
  local w, h, opts = ...
  check_size("grid", w, h, select("#", ...))
  local rule, size, ox, oy = read_options("grid", 3, opts)
  return new_grid(w, h, rule, size, ox, oy)
end

--- the tag number of name, made on first use
local function tag_number(g, name)
  local t = g.tagid[name]
  if not t then
    t = #g.tagnames + 1
    if t > 65535 then raise("too many distinct tags (at most 65535)") end
    g.tagnames[t] = name
    g.tagid[name] = t
  end
  return t
end

local function tag_layer(g)
  local tag = g.tag
  if not tag then
    tag = {}
    for p = 1, g.n do tag[p] = 0 end
    g.tag = tag
  end
  return tag
end

local function cost_layer(g)
  local cost = g.cost
  if not cost then
    cost = {}
    for p = 1, g.n do cost[p] = 1.0 end
    g.cost = cost
  end
  return cost
end

-- a legend entry: blocked, cost, tag (a string or nil)
local function cellspec(v, key)
  local t = type(v)
  if t == "boolean" then return not v, 1, nil end
  if t == "number" and v >= 0 and v ~= huge then return false, v, nil end
  if t == "string" then return false, 1, v end
  if t == "table" then
    for k in pairs(v) do
      if k ~= "blocked" and k ~= "cost" and k ~= "tag" then
        argerr("grid_from_string", 2, ("legend[%s] has an unknown field %s (expected blocked, cost or tag)")
          :format(key, describe(k)))
      end
    end
    local b, c, tg = v.blocked, v.cost, v.tag
    if b ~= nil and type(b) ~= "boolean" then
      argerr("grid_from_string", 2, ("legend[%s].blocked must be a boolean, got %s"):format(key, describe(b)))
    end
    if c ~= nil and (type(c) ~= "number" or not (c >= 0) or c == huge) then
      argerr("grid_from_string", 2, ("legend[%s].cost must be a finite number >= 0, got %s"):format(key, describe(c)))
    end
    if tg ~= nil and type(tg) ~= "string" then
      argerr("grid_from_string", 2, ("legend[%s].tag must be a string (tag name), got %s"):format(key, describe(tg)))
    end
    return b == true, c or 1, tg
  end
  argerr("grid_from_string", 2,
    ("legend[%s] must be true, false, a cost, a tag name or { blocked =, cost =, tag = }, got %s")
    :format(key, describe(v)))
end

function M.grid_from_string(text, legend, opts)
  if type(text) ~= "string" then U.type_error("grid_from_string", 1, "string", text) end
  if legend ~= nil and type(legend) ~= "table" then U.type_error("grid_from_string", 2, "table", legend) end
  if legend then
    for k, v in pairs(legend) do
      if not (type(k) == "string" and (#k == 1 or k == "default")) then
        argerr("grid_from_string", 2,
          ("legend keys must be single characters or \"default\", got %s"):format(describe(k)))
      end
      cellspec(v, '"' .. k .. '"')
    end
  end
  -- rows: LF or CRLF, trailing blank lines ignored, inner ones refused
  local rows, w = {}, -1
  local pos, len = 1, #text
  local blank_after = nil
  while pos <= len + 1 do
    local e = text:find("\n", pos, true)
    local line = text:sub(pos, (e or len + 1) - 1)
    if line:sub(-1) == "\r" then line = line:sub(1, -2) end
    if #line > 0 then
      if blank_after then argerr("grid_from_string", 1, ("blank line after row %d"):format(blank_after)) end
      if w >= 0 and #line ~= w then
        argerr("grid_from_string", 1, ("row %d has %d cells, row 1 has %d"):format(#rows + 1, #line, w))
      end
      if #line > 65535 then argerr("grid_from_string", 1, "map too large (at most 65535 x 65535)") end
      w = #line
      rows[#rows + 1] = line
    elseif #rows > 0 then
      blank_after = blank_after or #rows
    end
    if not e then break end
    pos = e + 1
  end
  if w <= 0 then argerr("grid_from_string", 1, "no rows in the map") end
  if #rows > 65535 then argerr("grid_from_string", 1, "map too large (at most 65535 x 65535)") end
  if w * #rows >= 2 ^ 30 then argerr("grid_from_string", 1, "map too large (width * height must be below 2^30)") end
  local rule, size, ox, oy = read_options("grid_from_string", 3, opts)
  local g = new_grid(w, #rows, rule, size, ox, oy)
  local open, pw = g.open, g.pw
  local specs = {}  -- byte -> { blocked, cost, tag } for legend characters
  local default
  if legend and legend.default ~= nil then
    local b, c, t = cellspec(legend.default, '"default"')
    default = { b, c, t }
  end
  for y = 1, #rows do
    local line = rows[y]
    local base = y * pw + 1
    for x = 1, w do
      local ch = line:byte(x)
      local spec = specs[ch]
      if spec == nil then
        local c = string.char(ch)
        local v = legend and legend[c]
        if v ~= nil then
          local b, cc, t = cellspec(v, '"' .. c .. '"')
          spec = { b, cc, t }
        elseif ch == 46 then spec = false            -- "." open
        elseif ch == 35 or ch == 64 then spec = true -- "#", "@" blocked
        elseif default then spec = default
        else
          local shown = (ch >= 32 and ch < 127) and ("'" .. c .. "'") or ("\\%d"):format(ch)
          argerr("grid_from_string", 1, ("unknown character %s at row %d, column %d (add it to the legend)")
            :format(shown, y, x))
        end
        specs[ch] = spec
      end
      if spec == true then
        open[base + x] = false
      elseif spec then
        local p = base + x
        if spec[1] then open[p] = false end
        if spec[2] ~= 1 then cost_layer(g)[p] = spec[2] + 0.0 end
        if spec[3] then tag_layer(g)[p] = tag_number(g, spec[3]) end
      end
    end
  end
  return g
end

-- ---------------------------------------------------------------------------
-- cell methods

M.LOG = 4096

-- a change of cell p: a new version (one for a whole batch: set_blocked_rect
-- and set_blocked_cells set g.batch) and a line in the change log
local function changed(g, p)
  local b = g.batch
  if not b or not b.bumped then
    g.ver = g.ver + 1
    if b then b.bumped = true end
  end
  local n = g.log_n + 1
  local i = (n - 1) % M.LOG + 1
  if n > M.LOG then g.dropped = g.lv[i] end
  g.lv[i], g.lp[i], g.log_n = g.ver, p, n
end
M.changed = changed

function Grid.set_blocked(g, x, y, b)
  check_mutable(g, "set_blocked")
  local p = cell(g, "set_blocked", 2, x, y)
  if type(b) ~= "boolean" then U.type_error("set_blocked", 4, "boolean", b, true) end
  local open = g.open
  if open[p] == not b then return end
  open[p] = not b
  changed(g, p)
  if g.J then M.jump_tables_changed(g, p) end
  -- component labels: a closing cell may split one (relabel at the next
  -- question); an opening cell joins its neighbours' labels when they agree
  local comp = g.comp
  if comp and g.comp_version == g.ver - 1 then
    if b then
      comp[p] = 0
      g.comp_version = -1
    else
      local label = M.join_label(g, p)
      if label then
        comp[p] = label
        g.comp_version = g.ver
      else
        g.comp_version = -1
      end
    end
  end
end

function Grid.is_blocked(g, x, y)
  check(g, "is_blocked")
  return not g.open[cell(g, "is_blocked", 2, x, y)]
end

function Grid.set_cost(g, x, y, c)
  check_mutable(g, "set_cost")
  local p = cell(g, "set_cost", 2, x, y)
  U.cost("set_cost", 4, c, "cost", true)
  c = c + 0.0
  local cost = g.cost
  if not cost then
    if c == 1 then return end
    cost = cost_layer(g)
  end
  if cost[p] == c then return end
  cost[p] = c
  changed(g, p)
  if g.comp_version == g.ver - 1 then g.comp_version = g.ver end
end

function Grid.get_cost(g, x, y)
  check(g, "get_cost")
  local p = cell(g, "get_cost", 2, x, y)
  return g.cost and g.cost[p] or 1.0
end

function Grid.set_tag(g, x, y, t)
  check_mutable(g, "set_tag")
  local p = cell(g, "set_tag", 2, x, y)
  if t ~= nil and type(t) ~= "string" then U.type_error("set_tag", 4, "string (tag name)", t, true) end
  local n = 0
  if t ~= nil then n = tag_number(g, t) end
  local tag = g.tag
  if not tag then
    if n == 0 then return end
    tag = tag_layer(g)
  end
  if tag[p] == n then return end
  tag[p] = n
  changed(g, p)
  if g.comp_version == g.ver - 1 then g.comp_version = g.ver end
end

function Grid.get_tag(g, x, y)
  check(g, "get_tag")
  local p = cell(g, "get_tag", 2, x, y)
  local t = g.tag and g.tag[p] or 0
  if t == 0 then return nil end
  return g.tagnames[t]
end

function Grid.id(g, x, y)
  check(g, "id")
  cell(g, "id", 2, x, y)
  return (y - 1) * g.w + x
end

function Grid.xy(g, id)
  check(g, "xy")
  local count = g.w * g.h
  if type(id) ~= "number" then
    argerr("xy", 2, ("cell id expected, got %s"):format(U.dtype(id)), true)
  end
  if id ~= floor(id) or not U.isfinite(id) then
    argerr("xy", 2, ("cell id must be an integer, got %s"):format(describe(id)), true)
  end
  if id < 1 or id > count then
    argerr("xy", 2, ("cell %s does not exist (the grid has %d cell%s)"):format(describe(id), count,
      count == 1 and "" or "s"), true)
  end
  local y = floor((id - 1) / g.w)
  return id - y * g.w, y + 1
end

function Grid.size(g)
  check(g, "size")
  return g.w, g.h
end

function Grid.diagonal(g)
  check(g, "diagonal")
  return RULES[g.rule]
end

function Grid.neighbours(g, x, y)
  check(g, "neighbours")
  cell(g, "neighbours", 2, x, y)
  local _, dx, dy = M.offsets(g.pw)
  local out = {}
  for d = 1, g.rule == 1 and 4 or 8 do
    local nx, ny = x + dx[d], y + dy[d]
    if nx >= 1 and nx <= g.w and ny >= 1 and ny <= g.h then out[#out + 1] = { nx, ny } end
  end
  return out
end

function Grid.close(g)
  if getmetatable(g) ~= Grid then U.type_error("close", 1, "astar.Grid", g) end
  if g.closed then return end
  if g.busy > 0 then
    g.close_pending = true
    return
  end
  g.closed = true
  g.open, g.cost, g.tag, g.comp, g.state = nil, nil, nil, nil, nil
  g.J, g.B = nil, nil
end
Grid.__close = Grid.close
Grid.__gc = nil

function Grid.__tostring(g)
  if g.closed then return "astar.Grid (closed)" end
  return ("astar.Grid (%dx%d, diagonal %s)"):format(g.w, g.h, RULES[g.rule])
end

-- ---------------------------------------------------------------------------
-- the world frame

function Grid.world(g)
  check(g, "world")
  return g.cell_size, g.ox, g.oy
end

function Grid.to_world(g, x, y)
  check(g, "to_world")
  cell(g, "to_world", 2, x, y)
  local s = g.cell_size
  return g.ox + (x - 0.5) * s, g.oy + (y - 0.5) * s
end

function Grid.to_cell(g, wx, wy)
  check(g, "to_cell")
  U.finite("to_cell", 2, wx, "x", true)
  U.finite("to_cell", 3, wy, "y", true)
  local x = floor((wx - g.ox) / g.cell_size) + 1
  local y = floor((wy - g.oy) / g.cell_size) + 1
  if x < 1 or y < 1 or x > g.w or y > g.h then return nil end
  return x, y
end

-- ---------------------------------------------------------------------------
-- text

function Grid.to_string(g, path)
  check(g, "to_string")
  local marks = {}
  if path ~= nil then
    if type(path) ~= "table" then U.type_error("to_string", 2, "table (a path or a list of cell ids)", path, true) end
    local nodes = rawget(path, "nodes")
    if nodes == nil then nodes = path end
    local count = g.w * g.h
    local n = #nodes
    for i = 1, n do
      local id = rawget(nodes, i)
      if type(id) ~= "number" or id ~= floor(id) or id < 1 or id > count then
        argerr("to_string", 2, ("path entry %d is not a cell id of this grid, got %s"):format(i, describe(id)), true)
      end
      marks[id] = (i == 1 and "S") or (i == n and "G") or "*"
    end
  end
  local out, open, cost, tag, pw, w = {}, g.open, g.cost, g.tag, g.pw, g.w
  for y = 1, g.h do
    local row = {}
    for x = 1, w do
      local p = y * pw + x + 1
      local ch = marks[(y - 1) * w + x]
      if not ch then
        if not open[p] then ch = "#"
        elseif (cost and cost[p] ~= 1) or (tag and tag[p] ~= 0) then ch = "~"
        else ch = "." end
      end
      row[x] = ch
    end
    out[y] = table.concat(row) .. "\n"
  end
  return table.concat(out)
end

-- ---------------------------------------------------------------------------
-- components: labels of the grid's own passability (blocked cells and the
-- diagonal rule), for connected() and for searches toward another one

-- side cells of diagonal d (5..8) from p: the horizontal and vertical parts
local function sides(pw, d)
  if d == 5 then return 1, pw elseif d == 6 then return 1, -pw
  elseif d == 7 then return -1, pw else return -1, -pw end
end
M.sides = sides

--- allowed(open, p, q, d, rule, pw): whether the diagonal step p -> q (d in 5..8) passes the rule
local function diag_ok(open, p, d, rule, pw)
  if rule == 1 then return false end
  if rule == 4 then return true end
  local h, v = sides(pw, d)
  local a, b = open[p + h], open[p + v]
  if rule == 2 then return a and b end
  return a or b
end
M.diag_ok = diag_ok

function M.relabel(g)
  local open, pw, n, rule = g.open, g.pw, g.n, g.rule
  local off = M.offsets(pw)
  local nd = rule == 1 and 4 or 8
  local comp = g.comp or {}
  for p = 1, n do comp[p] = 0 end
  local stack, label = {}, 0
  for p0 = 1, n do
    if open[p0] and comp[p0] == 0 then
      label = label + 1
      comp[p0] = label
      local top = 1
      stack[1] = p0
      while top > 0 do
        local p = stack[top]
        top = top - 1
        for d = 1, nd do
          local q = p + off[d]
          if open[q] and comp[q] == 0 and (d <= 4 or diag_ok(open, p, d, rule, pw)) then
            comp[q] = label
            top = top + 1
            stack[top] = q
          end
        end
      end
    end
  end
  g.comp, g.comp_version, g.comp_labels = comp, g.ver, label
end

--- the label the newly opened cell p takes: its neighbours' common label
-- (nil when they disagree: relabel then); a new label when it has none
function M.join_label(g, p)
  local open, comp, pw, rule = g.open, g.comp, g.pw, g.rule
  local off = M.offsets(pw)
  local label = nil
  for d = 1, rule == 1 and 4 or 8 do
    local q = p + off[d]
    if open[q] and (d <= 4 or diag_ok(open, p, d, rule, pw)) then
      local l = comp[q]
      if label == nil then label = l elseif l ~= label then return nil end
    end
  end
  if label == nil then
    g.comp_labels = g.comp_labels + 1
    label = g.comp_labels
  end
  return label
end

function M.same_component(g, p, q)
  if g.comp_version ~= g.ver then M.relabel(g) end
  return g.comp[p] == g.comp[q]
end

function Grid.connected(g, x1, y1, x2, y2)
  check(g, "connected")
  local p = cell(g, "connected", 2, x1, y1)
  local q = cell(g, "connected", 4, x2, y2)
  if not g.open[p] or not g.open[q] then return false end
  return M.same_component(g, p, q)
end

-- ---------------------------------------------------------------------------
-- jump tables: what a straight scan of jump point search ("no_corner_cutting")
-- finds from each cell, so the search reads it instead of walking the row.
-- One array, four entries a cell (a cell's entries share a cache line):
-- J[4 * p - 4 + d] for d = 1 (east), 2 (west), 3 (south), 4 (north) is
-- k > 0 when the scan from p stops at the forced cell p + k steps away, and
-- -k when it meets a wall after k open cells (the goal, which no table
-- knows, is checked by the search on the ray).  Built by the first jump
-- point search on the grid (O(cells)); from then on set_blocked keeps it
-- current at once, redoing the three rows and three columns around the
-- changed cell (O(width + height)).
-- Beside it, B[t]: the 2 x 2 block whose top left cell is t is open (a
-- diagonal step within it is allowed: "no_corner_cutting"), so a diagonal
-- run reads one flag a step where it read three cells; set_blocked redoes
-- the four blocks of the changed cell.

-- the entries of direction d (offset step; side offset a) from the cells
-- first, first + by, ... (count cells), walking against the scan: each
-- entry from its next cell's
local function line_entries(J, open, d, step, a, first, by, count)
  local p = first
  for _ = 1, count do
    local q = p + step
    local i = 4 * p - 4 + d
    if not open[q] then J[i] = 0
    elseif (open[q - a] and not open[p - a]) or (open[q + a] and not open[p + a]) then J[i] = 1
    else
      local v = J[4 * q - 4 + d]
      J[i] = v > 0 and v + 1 or v - 1
    end
    p = p + by
  end
end

local function row_tables(g, y)
  if y < 1 or y > g.h then return end
  local open, pw, w, J = g.open, g.pw, g.w, g.J
  local base = y * pw + 1
  line_entries(J, open, 1, 1, pw, base + w, -1, w)
  line_entries(J, open, 2, -1, pw, base + 1, 1, w)
end

local function col_tables(g, x)
  if x < 1 or x > g.w then return end
  local open, pw, h, J = g.open, g.pw, g.h, g.J
  line_entries(J, open, 3, pw, 1, h * pw + x + 1, -pw, h)
  line_entries(J, open, 4, -pw, 1, pw + x + 1, pw, h)
end

--- the grid's jump table, built on first use
function M.jump_tables(g)
  if not g.J then
    local n = g.n
    -- (an entry is at most the grid's width or height: 16 bits under 32767)
    g.J = U.int_array(4 * n, g.w < 32767 and g.h < 32767)
    local B, open, pw = U.bool_array(n), g.open, g.pw
    for t = 1, n - pw - 1 do B[t] = open[t] and open[t + 1] and open[t + pw] and open[t + pw + 1] end
    g.B = B
    for y = 1, g.h do row_tables(g, y) end
    for x = 1, g.w do col_tables(g, x) end
  end
  return g.J, g.B
end

function M.jump_tables_changed(g, p)
  local y = math.floor((p - 1) / g.pw)
  local x = p - 1 - y * g.pw
  for k = -1, 1 do
    row_tables(g, y + k)
    col_tables(g, x + k)
  end
  -- the four blocks that hold p (their top left cells: p, p - 1, and the
  -- two above them)
  local B, open, pw = g.B, g.open, g.pw
  for t = p - pw - 1, p, pw do
    B[t] = open[t] and open[t + 1] and open[t + pw] and open[t + pw + 1]
    B[t + 1] = open[t + 1] and open[t + 2] and open[t + pw + 1] and open[t + pw + 2]
  end
end

-- ---------------------------------------------------------------------------
-- line of sight: the native rule, an exact integer walk over the segment
-- between the two cell centres (doubled coordinates); where it passes
-- exactly through a grid corner it is blocked when both cells beside it
-- there are blocked -- except on "always" grids (squeeze true), where a
-- diagonal step squeezes between two diagonal walls and so does the line

function M.los(open, pw, x1, y1, x2, y2, squeeze)
  local p = y1 * pw + x1 + 1
  if not open[p] or not open[y2 * pw + x2 + 1] then return false end
  local dx, dy = x2 - x1, y2 - y1
  local sx, sy = dx > 0 and 1 or -1, dy > 0 and 1 or -1
  local ax, ay = dx * sx, dy * sy
  if ax == 0 or ay == 0 then
    local step = ax == 0 and sy * pw or sx
    for _ = 1, ax + ay do
      p = p + step
      if not open[p] then return false end
    end
    return true
  end
  -- the segment in units where a cell is 2 * ax * ay wide: the crossing of
  -- the next vertical border after i steps is at t = (2i + 1) * ay, of the
  -- next horizontal one at (2j + 1) * ax (t runs 0 .. 2 * ax * ay)
  local tx, ty = ay, ax
  local ix, iy = 0, 0
  while ix < ax or iy < ay do
    if tx < ty then
      p = p + sx
      ix = ix + 1
      tx = tx + 2 * ay
    elseif ty < tx then
      p = p + sy * pw
      iy = iy + 1
      ty = ty + 2 * ax
    else
      -- through a corner: both cells beside it blocked is a wall
      if not squeeze and not open[p + sx] and not open[p + sy * pw] then return false end
      p = p + sx + sy * pw
      ix, iy = ix + 1, iy + 1
      tx, ty = tx + 2 * ay, ty + 2 * ax
    end
    if not open[p] then return false end
  end
  return true
end

function Grid.line_of_sight(g, x1, y1, x2, y2, size)
  check(g, "line_of_sight")
  cell(g, "line_of_sight", 2, x1, y1)
  cell(g, "line_of_sight", 4, x2, y2)
  if size ~= nil then
    if type(size) ~= "number" or size ~= floor(size) or size < 1 or size > 255 then
      argerr("line_of_sight", 6, ("size must be an integer in 1..255, got %s"):format(describe(size)), true)
    end
    if size > 1 then raise("line_of_sight with a size above 1 needs the native module (astar.core)") end
  end
  return M.los(g.open, g.pw, x1, y1, x2, y2, g.rule == 4)
end

-- what the pure-Lua backend does not have
--- grid:visible_from(x, y [, radius]) -> a field: 1 where line_of_sight from
-- (x, y) holds within radius (Euclidean, between centres), 0 elsewhere
function Grid.visible_from(g, x, y, radius)
  check(g, "visible_from")
  cell(g, "visible_from", 2, x, y)
  if radius ~= nil and (type(radius) ~= "number" or not (radius >= 0) or radius == huge) then
    argerr("visible_from", 4, ("radius must be a finite number >= 0, got %s"):format(describe(radius)), true)
  end
  local F = require("astar.pure.field")
  local f = F.new(g.w, g.h, 0)
  local v, open, pw = f.v, g.open, g.pw
  local x0, x1, y0, y1 = 1, g.w, 1, g.h
  local r2 = huge
  if radius then
    local r = floor(radius)
    x0, x1 = math.max(1, x - r), math.min(g.w, x + r)
    y0, y1 = math.max(1, y - r), math.min(g.h, y + r)
    r2 = radius * radius
  end
  for cy = y0, y1 do
    for cx = x0, x1 do
      local dx, dy = cx - x, cy - y
      if dx * dx + dy * dy <= r2 and M.los(open, pw, x, y, cx, cy, g.rule == 4) then v[cy * pw + cx + 1] = 1.0 end
    end
  end
  return f
end

for _, name in ipairs({ "clearance", "memory", "smooth", "distances_query", "precompute_jumps" }) do
  Grid[name] = U.needs_native("grid:" .. name)
end

--- grid:has_jumps(): false (the precomputed jump table, for "jps+", is the
-- native module's; the pure backend's default search keeps its own tables)
function Grid.has_jumps(g)
  check(g, "has_jumps")
  return false
end

return M
