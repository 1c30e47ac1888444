-- Maps made whole at construction build their component labels there:
-- astar.grid_from_string (and astar.maps.load, which uses it),
-- astar.grid_from_table and astar.hex_from_table write their blocked cells
-- at once (astar_grid_set_blocked_all), so the first question after them
-- (connected, a search's unreachable proof) relabels nothing.  Before, the
-- cells were set one by one: each edit marked its sector, and the first
-- question relabelled the whole map inside its own time.
-- core._components_current(grid) says whether the labels describe the grid
-- as it is (no work left for the next question).

-- busted reads a spec's globals through its environment, a walk up the
-- context tree on every read: the hot ones as locals (spec/helpers.lua)
local assert, math, table = assert, math, table
local astar = require("astar")
local core = require("astar.core")
local lcg = require("helpers").lcg

local current = core._components_current
local RULES = { "never", "no_corner_cutting", "one_obstacle", "always" }
local LAYOUTS = { "odd_r", "even_r", "odd_q", "even_q" }

-- A random map: rows of '.' and '#', `percent` blocked.
local function random_rows(rand, w, h, percent)
  local rows = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do row[x] = rand() * 100 < percent and "#" or "." end
    rows[y] = table.concat(row)
  end
  return rows
end

-- The same map edited cell by cell, as before (the reference: its labels
-- come from the incremental path).
local function by_cell(g, rows)
  for y, row in ipairs(rows) do
    for x = 1, #row do
      if row:sub(x, x) == "#" then g:set_blocked(x, y, true) end
    end
  end
  return g
end

-- Both grids answer every question alike: each cell with its right and
-- lower neighbours and a random cell, and a few paths.
local function same_answers(rand, a, b, w, h)
  local bad = 0
  for y = 1, h do
    for x = 1, w do
      local rx, ry = math.floor(rand() * w) + 1, math.floor(rand() * h) + 1
      if a:connected(x, y, rx, ry) ~= b:connected(x, y, rx, ry) then bad = bad + 1 end
      if x < w and a:connected(x, y, x + 1, y) ~= b:connected(x, y, x + 1, y) then bad = bad + 1 end
      if y < h and a:connected(x, y, x, y + 1) ~= b:connected(x, y, x, y + 1) then bad = bad + 1 end
    end
  end
  assert.equal(0, bad)
  for _ = 1, 20 do
    local x0, y0 = math.floor(rand() * w) + 1, math.floor(rand() * h) + 1
    local x1, y1 = math.floor(rand() * w) + 1, math.floor(rand() * h) + 1
    local pa, ra = a:find_path(x0, y0, x1, y1)
    local pb, rb = b:find_path(x0, y0, x1, y1)
    assert.equal(pa and pa.cost, pb and pb.cost)
    assert.equal(ra, rb)
  end
end

describe("maps made whole build their labels at construction", function()
  it("grid_from_string: the labels are current before the first question", function()
    local g = astar.grid_from_string("..#..\n.###.\n..#..\n#####\n.....")
    assert.is_true(current(g))
    assert.is_false(g:connected(1, 1, 5, 1))
    assert.is_true(g:connected(1, 1, 1, 3))
    assert.is_false(g:connected(1, 1, 1, 5))
    local p, why = g:find_path(1, 1, 5, 5)
    assert.is_nil(p)
    assert.equal("unreachable", why)
    assert.is_true(current(g))
  end)

  it("a cell-by-cell load leaves the labels to the first question, a map made whole does not", function()
    local rows = random_rows(lcg(7), 64, 64, 35)
    local slow = by_cell(astar.grid(64, 64), rows)
    local fast = astar.grid_from_string(table.concat(rows, "\n"))
    assert.is_false(current(slow)) -- the first question would relabel it
    assert.is_true(current(fast))
    same_answers(lcg(8), slow, fast, 64, 64)
    assert.is_true(current(slow) and current(fast))
  end)

  it("maps.load: a Moving AI map is ready for its first question", function()
    local g = astar.maps.parse("type octile\nheight 3\nwidth 4\nmap\n.@..\n.@T.\n....\n")
    assert.is_true(current(g))
    assert.is_true(g:connected(1, 1, 4, 1))
    assert.equal(".#..\n.##.\n....\n", g:to_string())
  end)

  it("grid_from_table and hex_from_table: the same, costs and tags kept", function()
    local rows = { { 0, 1, 0, 0 }, { 0, 1, "m", 0 }, { 0, 1, 1, 1 } }
    local legend = { m = { cost = 3, tag = "mud" } }
    local g = astar.grid_from_table(rows, legend)
    assert.is_true(current(g))
    assert.is_false(g:connected(1, 1, 3, 1))
    assert.equal(3, g:get_cost(3, 2))
    assert.equal("mud", g:get_tag(3, 2))
    local h = astar.hex_from_table(rows, legend, { layout = "even_q" })
    assert.is_true(current(h))
    assert.equal(3, h:get_cost(3, 2))
    local want = astar.hex(4, 3, { layout = "even_q" })
    for _, c in ipairs({ { 2, 1 }, { 2, 2 }, { 2, 3 }, { 3, 3 }, { 4, 3 } }) do want:set_blocked(c[1], c[2], true) end
    want:set_cost(3, 2, 3)
    assert.equal(want:to_string(), h:to_string())
    -- an all-open map changes nothing: one component, nothing built
    assert.is_true(current(astar.grid_from_table({ { 0, 0 }, { 0, 0 } })))
    assert.is_true(current(astar.grid_from_string("..\n..")))
  end)

  it("labels built at once equal the incremental ones on random maps, every rule", function()
    local rand = lcg(2026)
    for _, rule in ipairs(RULES) do
      for _, size in ipairs({ { 1, 1 }, { 3, 41 }, { 37, 29 }, { 90, 70 } }) do
        for _, percent in ipairs({ 10, 40, 48 }) do
          local w, h = size[1], size[2]
          local rows = random_rows(rand, w, h, percent)
          local slow = by_cell(astar.grid(w, h, { diagonal = rule }), rows)
          local fast = astar.grid_from_string(table.concat(rows, "\n"), nil, { diagonal = rule })
          assert.is_true(current(fast))
          assert.equal(slow:to_string(), fast:to_string())
          same_answers(rand, slow, fast, w, h)
          -- edits after construction are incremental, as on any grid
          for _ = 1, 40 do
            local x, y, b = math.floor(rand() * w) + 1, math.floor(rand() * h) + 1, rand() < 0.5
            slow:set_blocked(x, y, b)
            fast:set_blocked(x, y, b)
          end
          same_answers(rand, slow, fast, w, h)
        end
      end
    end
  end)

  it("hex maps from tables equal hex grids edited cell by cell, every layout", function()
    local rand = lcg(19)
    for _, layout in ipairs(LAYOUTS) do
      for _, size in ipairs({ { 2, 3 }, { 33, 47 }, { 80, 60 } }) do
        local w, h = size[1], size[2]
        local text = random_rows(rand, w, h, 42)
        local rows = {}
        for y = 1, h do
          rows[y] = {}
          for x = 1, w do rows[y][x] = text[y]:sub(x, x) == "#" and 1 or 0 end
        end
        local slow = by_cell(astar.hex(w, h, { layout = layout }), text)
        local fast = astar.hex_from_table(rows, { layout = layout })
        assert.is_true(current(fast))
        assert.equal(slow:to_string(), fast:to_string())
        same_answers(rand, slow, fast, w, h)
      end
    end
  end)
end)
