-- bench/jumps.lua -- the "jumps" rows of `make bench`: what the jump table of
-- algorithm = "jps+" costs to keep (issue 19, item 3).
--
--   build               grid:precompute_jumps() on the whole map
--   edit (close)        one random open cell blocked: set_blocked with the
--                       table's local repair (the target: at most 0.1 ms on
--                       512 x 512), against the same edit without a table
--   edit (open)         the same cell opened again
--   wall of 64          set_blocked_cells: the open cells of 64 in a row
--                       (at least 32) blocked at once
--   costliest cell      the same cell closed and opened `trials` times: the
--                       cell whose repair walks the most entries (counted,
--                       not timed: see WORST), so its median is the
--                       deterministic worst single edit and the random rows'
--                       "largest" beyond it is the machine (preemption,
--                       page faults), not the repair
-- on the 512 x 512 maps AR0011SR (game), Boston_0_512 (street),
-- random512-20-0 and an empty 512 x 512 grid (the longest runs: the
-- worst case of a repair), from ../shared/maps (absent: the row says so).
-- CPU time (os.clock) per operation: median and largest over the trials.
-- Every edit is undone, so every trial sees the same map.
--
--   lua5.4 bench/jumps.lua [trials]
local astar = require("astar")
local MAPS = os.getenv("MAPS") or "../shared/maps"
local TRIALS = tonumber(arg[1] or "200")
local clock = os.clock

local median = dofile(((arg and arg[0] or ""):match("^(.*)[/\\]") or ".") .. "/util.lua").median
local function largest(t)
  local m = 0
  for _, v in ipairs(t) do if v > m then m = v end end
  return m
end

-- A deterministic generator (Park-Miller), so both sides see the same cells.
local function rng(seed)
  local s = seed
  return function(lo, hi)
    s = (s * 16807) % 2147483647
    return lo + s % (hi - lo + 1)
  end
end

local function load(name)
  if name == "empty" then return astar.grid(512, 512) end
  local path = MAPS .. "/" .. name .. ".map"
  local f = io.open(path, "r")
  if not f then return nil end
  f:close()
  return astar.maps.load(path)
end

-- Times fn(x, y) for `TRIALS` random open cells (undo(x, y) after each, not
-- timed), in microseconds.
local function per_edit(g, seed, fn, undo)
  local w, h = g:size()
  local r, t = rng(seed), {}
  while #t < TRIALS do
    local x, y = r(1, w), r(1, h)
    if not g:is_blocked(x, y) then
      local t0 = clock()
      fn(x, y)
      t[#t + 1] = (clock() - t0) * 1e6
      undo(x, y)
    end
  end
  return t
end

-- Times set_blocked_cells of the open cells among 64 in a row (at least
-- 32 of them), `TRIALS` times, each undone (not timed), in microseconds.
local function walls(g, seed)
  local w, h = g:size()
  local r, t = rng(seed), {}
  while #t < TRIALS do
    local x, y, cells = r(1, w - 63), r(1, h), {}
    for i = 0, 63 do
      if not g:is_blocked(x + i, y) then cells[#cells + 1] = { x + i, y } end
    end
    if #cells >= 32 then
      local t0 = clock()
      g:set_blocked_cells(cells, true)
      t[#t + 1] = (clock() - t0) * 1e6
      g:set_blocked_cells(cells, false)
    end
  end
  return t
end

-- The cell (1-based) whose close or open walks the most entries, found by
-- counting the repair's steps at every open cell (issue 19, notes/repair.md):
-- on the open grid, any cell in a column 15, 16 or 1 mod 16 (beside a
-- waypoint column) away from the borders: 36,050 entries recomputed, 31,730
-- of them changed (47,082 before the repair walked each diagonal once).
local WORST = {
  empty = { 255, 251 },
  AR0011SR = { 113, 151 },
  Boston_0_512 = { 273, 457 },
  ["random512-20-0"] = { 29, 57 },
}

-- Times closing and opening (x, y) `TRIALS` times each, in microseconds.
local function at_cell(g, x, y)
  local c, o = {}, {}
  for i = 1, TRIALS do
    local t0 = clock()
    g:set_blocked(x, y, true)
    local t1 = clock()
    g:set_blocked(x, y, false)
    c[i], o[i] = (t1 - t0) * 1e6, (clock() - t1) * 1e6
  end
  return c, o
end

local function row(label, t, base)
  local m = median(t)
  io.write(("  %-36s median %8.2f us  largest %8.2f us"):format(label, m, largest(t)))
  if base then io.write(("  (no table: %6.2f us, %.1fx)"):format(median(base), m / median(base))) end
  io.write("\n")
end

print(("jumps: the jump table of algorithm = \"jps+\" (CPU time, %d trials per row)"):format(TRIALS))
for _, name in ipairs({ "AR0011SR", "Boston_0_512", "random512-20-0", "empty" }) do
  local g = load(name)
  if not g then
    print(("%s: map not found in %s"):format(name, MAPS))
  else
    local w, h = g:size()
    print(("%s (%d x %d)"):format(name, w, h))
    -- the grid's first edit labels its sectors (sectors.c, ~0.4 ms on an
    -- open 512 x 512 grid, with or without a table): paid here, untimed, so
    -- the rows measure the table's repair
    local x0, y0 = 1, 1
    while g:is_blocked(x0, y0) do x0 = x0 % w + 1; y0 = x0 == 1 and y0 + 1 or y0 end
    g:set_blocked(x0, y0, true)
    g:set_blocked(x0, y0, false)
    local builds = {}
    for _ = 1, 9 do
      local t0 = clock()
      g:precompute_jumps()
      builds[#builds + 1] = (clock() - t0) * 1e6
    end
    row("build", builds)
    local close = function(x, y) g:set_blocked(x, y, true) end
    local open = function(x, y) g:set_blocked(x, y, false) end
    local with_close = per_edit(g, 11, close, open)
    local with_open = {}
    local r = rng(13)
    while #with_open < TRIALS do
      local x, y = r(1, w), r(1, h)
      if not g:is_blocked(x, y) then
        g:set_blocked(x, y, true)
        local t0 = clock()
        g:set_blocked(x, y, false)
        with_open[#with_open + 1] = (clock() - t0) * 1e6
      end
    end
    local wall = walls(g, 17)
    local worst = WORST[name]
    local wc, wo
    if worst and not g:is_blocked(worst[1], worst[2]) then wc, wo = at_cell(g, worst[1], worst[2]) end
    g:precompute_jumps(false)
    local base_close = per_edit(g, 11, close, open)
    local base_wall = walls(g, 17)
    row("edit (close)", with_close, base_close)
    row("edit (open)", with_open)
    row("wall of 64 cells (close)", wall, base_wall)
    if wc then
      row(("costliest cell (%d, %d) close"):format(worst[1], worst[2]), wc)
      row(("costliest cell (%d, %d) open"):format(worst[1], worst[2]), wo)
    end
    local without = g:memory()
    g:precompute_jumps()
    print(("  table: %d bytes (grid:memory() %d)"):format(g:memory() - without, g:memory()))
  end
end
