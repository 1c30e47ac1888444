--- astar.pure.edits (internal): the pure-Lua backend's grid methods for maps
-- that change: version, changes, path_valid, the bulk edits
-- (set_blocked_rect, set_blocked_cells, set_cost_rect, set_cost_cells,
-- set_tag_rect, set_tag_cells), to_table, nearest_open; the native module's checks and
-- messages.  The grid methods the pure-Lua backend does not have raise
-- "grid:<name> needs the native module".
-- luacheck: ignore 581 (not (a < b) on purpose: NaN compares false both ways)
local U = require("astar.pure.util")
local G = require("astar.pure.grid")
local O = require("astar.pure.opts")
local describe = U.describe
local argerr = U.argerr
local floor, sqrt, huge = math.floor, math.sqrt, math.huge

local Grid = G.Grid
local check, check_mutable, cell = G.check, G.check_mutable, G.cell
-- the raw one-cell edits (before U.wrap)
local set_blocked, set_cost, set_tag = Grid.set_blocked, Grid.set_cost, Grid.set_tag

local function int_in(fname, arg, v, name, lo, hi)
  if type(v) ~= "number" then U.type_error(fname, arg, "number", v, true) end
  if v ~= floor(v) or not (v >= lo and v <= hi) then
    argerr(fname, arg, ("%s must be an integer in %d..%d, got %s"):format(name, lo, hi, describe(v)), true)
  end
  return v
end

--- grid:version() -> the number of changes so far
function Grid.version(g)
  check(g, "version")
  return g.ver
end

--- grid:changes(since [, max]) -> ids (most recent first, each once), version;
-- or nil, "overflow" (the native rule: max counts log lines)
function Grid.changes(g, since, max)
  check(g, "changes")
  local now = g.ver
  int_in("changes", 2, since, "since", 0, now)
  local LOG = G.LOG
  if max == nil then max = LOG else int_in("changes", 3, max, "max", 1, LOG) end
  local ids, seen = {}, {}
  local want = now - since
  if want == 0 then return ids, now end
  local n = g.log_n
  local kept = n < LOG and n or LOG
  if want > kept then return nil, "overflow" end
  local lv, lp, pw, w = g.lv, g.lp, g.pw, g.w
  local at, met, found, i = now, false, 0, 0
  while i < kept do
    local k = (n - 1 - i) % LOG + 1
    local v = lv[k]
    if now - v >= want then break end
    if v ~= at then
      if not met or v ~= at - 1 then return nil, "overflow" end
      at = at - 1
    end
    met = true
    if found == max then return nil, "overflow" end
    found = found + 1
    local p = lp[k]
    local y = floor((p - 1) / pw)
    local id = (y - 1) * w + (p - 1 - y * pw)
    if not seen[id] then
      seen[id] = true
      ids[#ids + 1] = id
    end
    i = i + 1
  end
  if not met or at ~= since + 1 then return nil, "overflow" end
  if i == kept and n > LOG and g.dropped == since + 1 then return nil, "overflow" end
  return ids, now
end

-- the cells of a bulk edit (x, y pairs), checked first; then edit(g, x, y,
-- v) on each inside one batch: one change for them all, a log line per
-- cell that changed.  Blocking cells settles the component labels at the
-- next question; costs and tags leave them as they are.
local function bulk(g, cells, edit, v)
  local batch = { bumped = false }
  g.batch = batch
  local ok, err = pcall(function()
    for i = 1, #cells, 2 do edit(g, cells[i], cells[i + 1], v) end
  end)
  g.batch = nil
  if batch.bumped and edit == set_blocked then g.comp_version = -1 end
  if not ok then error(err, 0) end
end

-- the cells of the rectangle with those corners (checked), as x, y pairs
local function rect_cells(g, fname, x1, y1, x2, y2)
  cell(g, fname, 2, x1, y1)
  cell(g, fname, 4, x2, y2)
  if x1 > x2 then x1, x2 = x2, x1 end
  if y1 > y2 then y1, y2 = y2, y1 end
  local cells = {}
  for y = y1, y2 do
    for x = x1, x2 do
      cells[#cells + 1] = x
      cells[#cells + 1] = y
    end
  end
  return cells
end

local function check_list(fname, list)
  if type(list) ~= "table" then U.type_error(fname, 2, "table (a list of cells)", list, true) end
end

-- the cells of a list of {x, y} (read raw), checked, as x, y pairs
local function list_cells(g, fname, list)
  local cells = {}
  for i = 1, #list do
    local c = rawget(list, i)
    local x, y = type(c) == "table" and rawget(c, 1), type(c) == "table" and rawget(c, 2)
    if type(x) ~= "number" or type(y) ~= "number" or x ~= floor(x) or y ~= floor(y)
        or x < 1 or x > g.w or y < 1 or y > g.h then
      argerr(fname, 2, ("cells[%d] must be a cell {x, y} inside the %dx%d grid, got %s")
        :format(i, g.w, g.h, describe(c)), true)
    end
    cells[#cells + 1] = x
    cells[#cells + 1] = y
  end
  return cells
end

local function check_bool(fname, arg, b)
  if type(b) ~= "boolean" then U.type_error(fname, arg, "boolean", b, true) end
end
local function check_cost(fname, arg, c) U.cost(fname, arg, c, "cost", true) end
local function check_tag(fname, arg, t)
  if t ~= nil and type(t) ~= "string" then U.type_error(fname, arg, "string (tag name)", t, true) end
end

-- grid:set_blocked_rect(x1, y1, x2, y2, blocked), set_cost_rect(..., cost),
-- set_tag_rect(..., tag); grid:set_blocked_cells(cells, blocked),
-- set_cost_cells(cells, cost), set_tag_cells(cells, tag): one change each,
-- checked in the native module's order (the list's type, the value, the
-- grid not being searched, the cells)
for _, kind in ipairs({ { "blocked", check_bool, set_blocked }, { "cost", check_cost, set_cost },
  { "tag", check_tag, set_tag } }) do
  local what, check_value, edit = kind[1], kind[2], kind[3]
  local rname, lname = "set_" .. what .. "_rect", "set_" .. what .. "_cells"
  Grid[rname] = function(g, x1, y1, x2, y2, v)
    check(g, rname)
    local cells = rect_cells(g, rname, x1, y1, x2, y2)
    check_value(rname, 6, v)
    check_mutable(g, rname)
    bulk(g, cells, edit, v)
  end
  Grid[lname] = function(g, list, v)
    check(g, lname)
    check_list(lname, list)
    check_value(lname, 3, v)
    check_mutable(g, lname)
    bulk(g, list_cells(g, lname, list), edit, v)
  end
end

--- grid:to_table() -> rows[y][x]: 1 blocked, 0 open
function Grid.to_table(g)
  check(g, "to_table")
  local open, pw, rows = g.open, g.pw, {}
  for y = 1, g.h do
    local row, base = {}, y * pw + 1
    for x = 1, g.w do row[x] = open[base + x] and 0 or 1 end
    rows[y] = row
  end
  return rows
end

--- grid:nearest_open(x, y [, size [, max_radius]]) -> x, y, distance or nil.
-- Square rings around (x, y) out to the answer's distance; ties within
-- 1e-9: the smaller id.
function Grid.nearest_open(g, x, y, size, max_radius)
  check(g, "nearest_open")
  cell(g, "nearest_open", 2, x, y)
  if size ~= nil then
    if type(size) ~= "number" or size ~= floor(size) or not (size >= 1 and size <= 255) then
      argerr("nearest_open", 4, ("size must be an integer in 1..255, got %s"):format(describe(size)), true)
    end
    if size > 1 then U.raise("nearest_open with a size above 1 needs the native module (astar.core)") end
  end
  if max_radius ~= nil and type(max_radius) ~= "number" then
    U.type_error("nearest_open", 5, "number", max_radius, true)
  end
  if max_radius ~= nil and not (max_radius >= 0) then
    argerr("nearest_open", 5, ("max_radius must be a number >= 0, got %s"):format(describe(max_radius)), true)
  end
  local limit = max_radius or huge
  local open, pw, w, h = g.open, g.pw, g.w, g.h
  local bx, by, bd
  local far = math.max(x - 1, w - x, y - 1, h - y)
  for r = 0, far do
    if r > limit or (bd and r > bd + 1e-9) then break end
    for cy = y - r, y + r do
      if cy >= 1 and cy <= h then
        local edge = cy == y - r or cy == y + r
        local step = edge and 1 or 2 * r
        local cx = x - r
        while cx <= x + r do
          if cx >= 1 and cx <= w and open[cy * pw + cx + 1] then
            local dx, dy = cx - x, cy - y
            local d = sqrt(dx * dx + dy * dy)
            if d <= limit and (not bd or d < bd - 1e-9
                or (d <= bd + 1e-9 and (cy < by or (cy == by and cx < bx)))) then
              bx, by, bd = cx, cy, d
            end
          end
          if step == 0 then break end
          cx = cx + step
        end
      end
    end
  end
  if not bd then return nil end
  return bx, by, bd + 0.0
end

-- the options path_valid reads (costs, forbid, size); the others are checked
-- as find_path checks them (smooth and any_angle: as booleans) and ignored
local function valid_opts(g, opts)
  if opts == nil then return nil end
  if type(opts) ~= "table" then U.type_error("path_valid", 4, "table", opts, true) end
  local copy = {}
  for k, v in pairs(opts) do
    if k == "smooth" or k == "any_angle" then
      if type(v) ~= "boolean" then
        argerr("path_valid", 4, ("%s must be a boolean, got %s"):format(k, describe(v)), true)
      end
    else
      copy[k] = v
    end
  end
  local size = copy.size
  copy.size = nil
  local o = O.parse(g, "path_valid", 4, copy, "path")
  if size ~= nil then O.size(o, g, "path_valid", 4, size) end
  return o, size
end

--- grid:path_valid(path [, from_index [, opts]]) -> true, or false, i
function Grid.path_valid(g, path, from, opts)
  check(g, "path_valid")
  if type(path) ~= "table" then U.type_error("path_valid", 2, "table (a path)", path, true) end
  local nodes = rawget(path, "nodes")
  if type(nodes) ~= "table" then
    argerr("path_valid", 2, ("path.nodes must be a list of cell ids, got %s"):format(U.dtype(nodes)), true)
  end
  local n = #nodes
  if n < 1 then
    argerr("path_valid", 2, ("path.nodes must hold at least one cell, got %d entries"):format(n), true)
  end
  local w, pw, count = g.w, g.pw, g.w * g.h
  local ps = {}
  for i = 1, n do
    local id = rawget(nodes, i)
    if type(id) ~= "number" or id ~= floor(id) or id < 1 or id > count then
      argerr("path_valid", 2, ("path.nodes[%d] must be a cell id in 1..%d, got %s")
        :format(i, count, describe(id)), true)
    end
    local y = floor((id - 1) / w)
    ps[i] = (y + 1) * pw + (id - y * w) + 1
  end
  local psize = rawget(path, "size")
  if psize ~= nil and (type(psize) ~= "number" or psize ~= floor(psize) or not (psize >= 1 and psize <= 255)) then
    argerr("path_valid", 2, ("path.size must be an integer in 1..255, got %s"):format(describe(psize)), true)
  end
  if from == nil then from = 1 else int_in("path_valid", 3, from, "from_index", 1, n) end
  local o, osize = valid_opts(g, opts)
  local size = osize or psize or 1
  if size > 1 then U.raise("path_valid with a size above 1 needs the native module (astar.core)") end
  local open, rule = g.open, g.rule
  local forb = o and o.forbid and o.forbid.v
  local tagf, tag = o and o.tagf, g.tag
  local function shut(p)
    if not open[p] then return true end
    if forb and forb[p] ~= 0 then return true end
    if tagf and tag and tag[p] ~= 0 and tagf[tag[p]] == false then return true end
    return false
  end
  if shut(ps[from]) then return false, from end
  for i = from + 1, n do
    local p, q = ps[i - 1], ps[i]
    local d = q - p
    local dx = (q - 1) % pw - (p - 1) % pw
    local dy = floor((q - 1) / pw) - floor((p - 1) / pw)
    local x, y = (q - 1) % pw, floor((q - 1) / pw)
    if d == 0 then
      argerr("path_valid", 2, ("path.nodes[%d] (cell (%d, %d)) repeats the cell before it"):format(i, x, y), true)
    end
    if dx < -1 or dx > 1 or dy < -1 or dy > 1 then
      argerr("path_valid", 2, ("path.nodes[%d] (cell (%d, %d)) is not a neighbour of the cell before it")
        :format(i, x, y), true)
    end
    if dx ~= 0 and dy ~= 0 then
      if rule == 1 then
        argerr("path_valid", 2, ('path.nodes[%d] (cell (%d, %d)) is a diagonal step from the cell before it '
          .. '(diagonal = "never" allows none)'):format(i, x, y), true)
      end
      if shut(q) then return false, i end
      if rule ~= 4 then -- the corner rule: a forbidden cell is an obstacle too (as in a search)
        local a, b = not shut(p + dx), not shut(p + dy * pw)
        if rule == 2 and not (a and b) then return false, i end
        if rule == 3 and not (a or b) then return false, i end
      end
    elseif shut(q) then
      return false, i
    end
  end
  return true
end

for _, name in ipairs({ "would_disconnect", "spread", "find_nearest", "flee" }) do
  Grid[name] = U.needs_native("grid:" .. name)
end

return {}
