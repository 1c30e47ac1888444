-- Bulk edits of costs and tags (issue 20): grid:set_cost_rect,
-- grid:set_cost_cells, grid:set_tag_rect and grid:set_tag_cells, as
-- set_blocked_rect and set_blocked_cells are: every cell checked first (an
-- error changes nothing), one new version for the whole edit, one log line
-- per cell that changed, no change (no version) when every cell already
-- was so.  Tagged #pure: make test-pure runs them on the pure-Lua backend.
local astar = require("astar")

local function error_of(f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error")
  return (tostring(err):gsub("^[^:]*:%d+: ", ""))
end

-- the costs and tags of every cell, as text
local function layers(g)
  local w, h = g:size()
  local out = {}
  for y = 1, h do
    for x = 1, w do out[#out + 1] = ("%g/%s "):format(g:get_cost(x, y), g:get_tag(x, y) or "-") end
    out[#out + 1] = "\n"
  end
  return table.concat(out)
end

local function sorted(t)
  table.sort(t)
  return t
end

describe("bulk edits of costs and tags #pure", function()
  it("set_cost_rect sets the cost of every cell of the rectangle, corners in either order", function()
    local g = astar.grid(5, 4)
    g:set_cost_rect(4, 3, 2, 2, 3.5)
    assert.equal("1/- 1/- 1/- 1/- 1/- \n1/- 3.5/- 3.5/- 3.5/- 1/- \n1/- 3.5/- 3.5/- 3.5/- 1/- \n1/- 1/- 1/- 1/- 1/- \n",
      layers(g))
    g:set_cost_rect(3, 3, 3, 3, 1)
    assert.equal(1, g:get_cost(3, 3))
    assert.equal(3.5, g:get_cost(4, 3))
  end)

  it("set_cost_cells takes a list of {x, y}, repeats allowed, an empty list is no change", function()
    local g = astar.grid(4, 2)
    local v = g:version()
    g:set_cost_cells({}, 5)
    assert.equal(v, g:version())
    g:set_cost_cells({ { 1, 1 }, { 4, 2 }, { 1, 1 } }, 0)
    assert.equal("0/- 1/- 1/- 1/- \n1/- 1/- 1/- 0/- \n", layers(g))
  end)

  it("set_tag_rect and set_tag_cells tag cells by name; nil removes the tag", function()
    local g = astar.grid(4, 3)
    g:set_tag_rect(1, 1, 2, 3, "mud")
    g:set_tag_cells({ { 2, 2 }, { 4, 3 } }, "road")
    assert.equal("1/mud 1/mud 1/- 1/- \n1/mud 1/road 1/- 1/- \n1/mud 1/mud 1/- 1/road \n", layers(g))
    g:set_tag_rect(1, 3, 4, 3, nil)
    g:set_tag_cells({ { 1, 1 } })
    assert.equal("1/- 1/mud 1/- 1/- \n1/mud 1/road 1/- 1/- \n1/- 1/- 1/- 1/- \n", layers(g))
  end)

  it("is one change: one version, a log line per changed cell, none for cells left as they were", function()
    local g = astar.grid(6, 6)
    g:set_cost(2, 2, 4)
    g:set_tag(3, 3, "mud")
    local v = g:version()
    g:set_cost_rect(1, 1, 3, 2, 4)              -- (2, 2) already costs 4
    assert.equal(v + 1, g:version())
    assert.same(sorted({ g:id(1, 1), g:id(2, 1), g:id(3, 1), g:id(1, 2), g:id(3, 2) }), sorted(g:changes(v)))
    g:set_cost_rect(1, 1, 3, 2, 4)              -- nothing to change: no new version
    g:set_cost_cells({ { 2, 2 }, { 1, 1 } }, 4)
    assert.equal(v + 1, g:version())
    g:set_tag_cells({ { 3, 3 }, { 4, 4 }, { 4, 4 } }, "mud")
    assert.equal(v + 2, g:version())
    assert.same({ g:id(4, 4) }, g:changes(v + 1))
    g:set_tag_rect(3, 3, 4, 4, "mud")
    g:set_tag_rect(5, 5, 6, 6, nil)
    assert.equal(v + 3, g:version())            -- (3, 4) and (4, 3) tagged
    assert.same(sorted({ g:id(3, 4), g:id(4, 3) }), sorted(g:changes(v + 2)))
    g:set_cost_rect(1, 1, 6, 6, 1)
    assert.equal(v + 4, g:version())
    assert.equal(6, #g:changes(v + 3))          -- the six cells that cost 4
  end)

  it("checks every cell and the value first: an error changes nothing", function()
    local g = astar.grid(8, 8)
    local before, v = layers(g), g:version()
    assert.equal("bad argument #1 to 'set_cost_cells' (cells[3] must be a cell {x, y} inside the 8x8 grid, got table)",
      error_of(g.set_cost_cells, g, { { 1, 1 }, { 2, 2 }, { 9, 1 } }, 2))
    assert.equal("bad argument #1 to 'set_tag_cells' (cells[2] must be a cell {x, y} inside the 8x8 grid, got 5)",
      error_of(g.set_tag_cells, g, { { 1, 1 }, 5 }, "mud"))
    assert.equal("bad argument #3 to 'set_cost_rect' (x must be an integer in 1..8, got 9)",
      error_of(g.set_cost_rect, g, 1, 1, 9, 1, 2))
    assert.equal("bad argument #5 to 'set_cost_rect' (cost must be a finite number >= 0, got -1)",
      error_of(g.set_cost_rect, g, 1, 1, 2, 2, -1))
    assert.equal("bad argument #2 to 'set_cost_cells' (cost must be a finite number >= 0, got inf)",
      error_of(g.set_cost_cells, g, { { 1, 1 } }, math.huge))
    assert.equal("bad argument #5 to 'set_tag_rect' (string (tag name) expected, got number)",
      error_of(g.set_tag_rect, g, 1, 1, 2, 2, 7))
    assert.equal("bad argument #1 to 'set_tag_cells' (table (a list of cells) expected, got string)",
      error_of(g.set_tag_cells, g, "cells", "mud"))
    assert.equal(before, layers(g))
    assert.equal(v, g:version())
  end)

  it("is refused during a search, as set_cost and set_tag are", function()
    local g = astar.grid(8, 8)
    local msgs = {}
    g:find_path(1, 1, 8, 8, { heuristic = function()
      if not msgs[1] then
        msgs[1] = error_of(g.set_cost_rect, g, 4, 4, 5, 5, 3)
        msgs[2] = error_of(g.set_tag_cells, g, { { 4, 4 } }, "mud")
      end
      return 0
    end })
    assert.equal("cannot call 'set_cost_rect': grid is being searched", msgs[1])
    assert.equal("cannot call 'set_tag_cells': grid is being searched", msgs[2])
    assert.equal(1, g:get_cost(4, 4))
    assert.is_nil(g:get_tag(4, 4))
  end)

  it("searches see the new costs and tags", function()
    local g = astar.grid(9, 5, { diagonal = "never" })
    local plain = g:find_path(1, 3, 9, 3).cost
    g:set_cost_rect(2, 1, 8, 5, 10)
    g:set_cost_cells({ { 5, 1 }, { 5, 2 }, { 5, 3 }, { 5, 4 }, { 5, 5 } }, 10)
    assert.equal(plain + 7 * 9, g:find_path(1, 3, 9, 3).cost)
    g:set_tag_rect(5, 1, 5, 4, "wall")
    local p = g:find_path(1, 3, 9, 3, { costs = { wall = false } })
    local crossing
    for _, c in ipairs(p.xy) do
      if c[1] == 5 then crossing = c[2] end
    end
    assert.equal(5, crossing)                   -- column 5 is open on row 5 only
  end)

  it("a query restarts once and a distance field updates after a bulk edit", function()
    local g = astar.grid(20, 20)
    local f = g:distances({ { 1, 1 } })
    local q = g:query(1, 1, 20, 20, { algorithm = "astar", on_change = "restart" })
    assert.equal("searching", q:step(5))
    g:set_cost_rect(5, 1, 6, 18, 3)
    g:set_cost_cells({ { 10, 10 }, { 11, 11 } }, 2)
    assert.equal("found", q:step())
    assert.equal(1, q:result().restarts)
    assert.equal(g:find_path(1, 1, 20, 20).cost, q:result().cost)
    local how = f:update()
    assert.is_truthy(how == "repaired" or how == "rebuilt")
    local fresh = g:distances({ { 1, 1 } })
    for y = 1, 20 do
      for x = 1, 20 do assert.equal(fresh:get(x, y), f:get(x, y)) end
    end
  end)
end)
