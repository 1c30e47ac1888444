-- Jump point search for units of size k (the `size` option): the unit's
-- grid is the cells whose clearance is at least k, and jump point search
-- runs on it.  Oracle: the sized A* (algorithm = "astar") on random grids
-- and on Moving AI rows (a sample here; more rows under #system), same
-- answers; every path a legal walk of the unit.
local astar = require("astar")
local helpers = require("helpers")
local error_of, rng = helpers.error_of, helpers.rng

local DIAG = astar.DIAGONAL

-- Checks that path p is a legal walk of a unit of size k on g from
-- (sx, sy) to (gx, gy): every cell fits the unit, diagonal steps do not cut
-- corners (the unit fits at both side positions), the cost is the steps'.
local function check_unit_walk(g, p, k, sx, sy, gx, gy)
  local xy = p.xy
  assert.same({ sx, sy }, xy[1])
  assert.same({ gx, gy }, xy[#xy])
  local sum = 0
  for i = 1, #xy do
    local x, y = xy[i][1], xy[i][2]
    if g:clearance(x, y) < k then error(("cell %d: the unit does not fit at (%d, %d)"):format(i, x, y)) end
    if i > 1 then
      local px, py = xy[i - 1][1], xy[i - 1][2]
      local dx, dy = math.abs(x - px), math.abs(y - py)
      if dx > 1 or dy > 1 or dx + dy == 0 then error(("cell %d: not a step between neighbours"):format(i)) end
      if dx + dy == 2 then
        if g:clearance(x, py) < k or g:clearance(px, y) < k then
          error(("cell %d: the unit cuts a corner"):format(i))
        end
        sum = sum + DIAG
      else
        sum = sum + 1
      end
    end
  end
  assert.equal(sum, p.cost)
end

local random_grid = helpers.random_grid

-- A cell of g (w x h) where a unit of size k fits, mostly (any cell after
-- `tries` misses).
local function fit_cell(r, g, w, h, k, tries)
  for _ = 1, tries do
    local x, y = r(1, w), r(1, h)
    if g:clearance(x, y) >= k then return x, y end
  end
  return r(1, w), r(1, h)
end

-- The sized jump point search against the sized A* on one query: the same
-- answer, a legal walk.  True when a path was found.
local function same_as_astar(g, k, sx, sy, gx, gy)
  local a, wa = g:find_path(sx, sy, gx, gy, { size = k, algorithm = "astar" })
  local j, wj = g:find_path(sx, sy, gx, gy, { size = k, algorithm = "jps" })
  assert.equal(wa, wj)
  assert.equal(a and a.cost, j and j.cost)
  if j then check_unit_walk(g, j, k, sx, sy, gx, gy) end
  return j ~= nil
end

describe("jps for units of size k", function()
  it("takes sized queries (auto and \"jps\") and expands far fewer cells than A*", function()
    local g = astar.grid(60, 60)
    for y = 1, 50 do g:set_blocked(30, y, true) end
    local a = assert(g:find_path(2, 2, 58, 5, { size = 3, algorithm = "astar" }))
    local auto = assert(g:find_path(2, 2, 58, 5, { size = 3 }))
    local j = assert(g:find_path(2, 2, 58, 5, { size = 3, algorithm = "jps" }))
    assert.equal(a.cost, auto.cost)
    assert.equal(a.cost, j.cost)
    assert.equal(auto.expanded, j.expanded)
    assert(j.expanded * 10 < a.expanded, ("jps expanded %d, A* %d"):format(j.expanded, a.expanded))
    check_unit_walk(g, j, 3, 2, 2, 58, 5)
    -- partial searches stay with A* under auto, as for one cell
    local pa = assert(g:find_path(2, 2, 58, 5, { size = 3, partial = true, algorithm = "astar" }))
    assert.equal(pa.expanded, g:find_path(2, 2, 58, 5, { size = 3, partial = true }).expanded)
  end)

  it("raises naming the reason where it cannot serve a unit", function()
    local four = astar.grid(8, 8, { diagonal = "never" })
    assert.equal("bad argument #5 to 'find_path' (algorithm \"jps\" does not apply to this query "
      .. "(unit size above 1 without diagonal steps))",
      error_of(four.find_path, four, 1, 1, 6, 6, { size = 2, algorithm = "jps" }))
    -- auto runs the sized A* there
    assert.equal(5 * 1 + 5, four:find_path(1, 1, 6, 6, { size = 2 }).cost)
  end)

  it("random grids: the sized A*'s answers, legal walks, set_blocked between queries", function()
    local r = rng(2026)
    local n = 0
    for case = 1, 160 do
      local w, h = r(4, 36), r(4, 36)
      local g = random_grid(r, w, h, r() * 0.2)
      for _ = 1, 3 do
        local k = r(2, 4)
        local sx, sy = fit_cell(r, g, w, h, k, 30)
        local gx, gy = fit_cell(r, g, w, h, k, 30)
        if case % 4 == 0 then gx, gy = sx + r(-1, 1), sy + r(-1, 1) end
        gx, gy = math.max(1, math.min(w, gx)), math.max(1, math.min(h, gy))
        if same_as_astar(g, k, sx, sy, gx, gy) then n = n + 1 end
        local x, y = r(1, w), r(1, h)
        g:set_blocked(x, y, not g:is_blocked(x, y))
      end
    end
    assert(n > 150, "too few reachable cases: " .. n)
  end)

  it("the units' bit sets: lines of many words, bounded scans, edits that move clearance", function()
    -- each size's runs are scanned in bit sets of the cells where it fits
    -- (src/jpsunits.c), built at its first query and kept current by
    -- set_blocked: grids wider than a word (130 x 130), and wider than the
    -- bounded scans' 768 (900 x 24), edited between queries
    local r = rng(77)
    local n = 0
    for _, dims in ipairs({ { 130, 130 }, { 900, 24 } }) do
      local w, h = dims[1], dims[2]
      local g = random_grid(r, w, h, 0.08)
      for round = 1, 40 do
        local k = r(2, 4)
        local sx, sy = fit_cell(r, g, w, h, k, 50)
        local gx, gy = fit_cell(r, g, w, h, k, 50)
        if same_as_astar(g, k, sx, sy, gx, gy) then n = n + 1 end
        -- edits: single cells, and a block opened or closed (clearance
        -- rises or falls over several rows and sizes at once)
        for _ = 1, 6 do
          local x, y = r(1, w), r(1, h)
          g:set_blocked(x, y, not g:is_blocked(x, y))
        end
        local x, y = r(1, w - 4), r(1, h - 4)
        for dy = 0, 3 do
          for dx = 0, 3 do g:set_blocked(x + dx, y + dy, round % 2 == 0) end
        end
      end
    end
    assert(n >= 30, "too few reachable cases: " .. n)
  end)

  it("the units' bit sets are counted by grid:memory(), two bits a cell per size", function()
    local g = astar.grid(200, 100)
    g:clearance(1, 1)
    local m0 = g:memory()
    assert.is_truthy(g:find_path(1, 1, 150, 90, { size = 2 }))
    local m2 = g:memory()
    assert.is_true(m2 - m0 >= 2 * 200 * 100 / 8, (m2 - m0) .. " bytes")
    assert.is_truthy(g:find_path(1, 1, 150, 90, { size = 2 }))
    assert.equal(m2, g:memory()) -- built once
    assert.is_truthy(g:find_path(1, 1, 150, 90, { size = 3 }))
    assert.is_true(g:memory() - m2 >= 2 * 200 * 100 / 8)
  end)

  it("a heuristic callback, stop modes and budgets work with units", function()
    local g = astar.grid(40, 40)
    for x = 1, 35 do g:set_blocked(x, 20, true) end
    local a = assert(g:find_path(1, 1, 1, 39, { size = 2, algorithm = "astar" }))
    local octile = function(x, y, gx, gy)
      local dx, dy = math.abs(x - gx), math.abs(y - gy)
      return math.max(dx, dy) + (DIAG - 1) * math.min(dx, dy)
    end
    assert.equal(a.cost, g:find_path(1, 1, 1, 39, { size = 2, heuristic = octile }).cost)
    assert.equal(a.cost, g:find_path(1, 1, 1, 39, { size = 2, stop = "optimal" }).cost)
    local none, why = g:find_path(1, 1, 1, 39, { size = 2, max_expansions = 1 })
    assert.is_nil(none)
    assert.equal("max_expansions", why)
  end)
end)

local function maps_dir()
  local source = debug.getinfo(1, "S").source:gsub("^@", "")
  return (source:match("^(.*)/[^/]*$") or ".") .. "/../../shared/maps"
end

local GAME = { "arena", "den312d", "lak303d", "brc202d", "AR0011SR", "CatwalkAlley", "Berlin_0_256",
  "Boston_0_512", "random512-10-0", "8room_000" }

-- Rows of the Moving AI maps with units of size 2 and 3: jump point search
-- against the sized A*.
local function sweep(step)
  local dir = maps_dir()
  local f = io.open(dir .. "/README.md", "rb")
  if not f then
    pending("benchmark data not found at " .. dir)
    return 0
  end
  f:close()
  local rows, failures = 0, {}
  for _, name in ipairs(GAME) do
    local g = astar.maps.load(dir .. "/" .. name .. ".map")
    local list = astar.maps.scenarios(dir .. "/" .. name .. ".map.scen")
    for i = 1, #list, step do
      local s = list[i]
      for k = 2, 3 do
        local a = g:find_path(s.start[1], s.start[2], s.goal[1], s.goal[2], { size = k, algorithm = "astar" })
        local j = g:find_path(s.start[1], s.start[2], s.goal[1], s.goal[2], { size = k })
        rows = rows + 1
        if (a and a.cost) ~= (j and j.cost) then
          failures[#failures + 1] = ("%s row %d size %d: jps %s, A* %s"):format(name, i, k, j and j.cost, a and a.cost)
        elseif j then
          check_unit_walk(g, j, k, s.start[1], s.start[2], s.goal[1], s.goal[2])
        end
      end
    end
  end
  assert(#failures == 0, table.concat(failures, "\n", 1, math.min(20, #failures)))
  return rows
end

describe("jps for units: Moving AI rows", function()
  it("every 997th row of the game, street, random and rooms maps, sizes 2 and 3", function()
    assert(sweep(997) > 20)
  end)
end)

describe("jps for units: more Moving AI rows #system", function()
  it("every 23rd row of those maps, sizes 2 and 3", function()
    assert(sweep(23) > 1000)
  end)
end)
