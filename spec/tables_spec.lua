-- Maps the way Lua games hold them (issue 20): astar.grid_from_table and
-- astar.hex_from_table (rows[y][x], a legend; or rows and options with the
-- legend in opts.legend), grid:to_table, and the bulk
-- edits grid:set_blocked_rect and grid:set_blocked_cells (checked first,
-- one change of the grid, a log line per changed cell).
local astar = require("astar")

local function error_of(f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error")
  return (tostring(err):gsub("^[^:]*:%d+: ", ""))
end

local function passability(g)
  local w, h = g:size()
  local out = {}
  for y = 1, h do
    for x = 1, w do out[#out + 1] = g:is_blocked(x, y) and "#" or "." end
    out[#out + 1] = "\n"
  end
  return table.concat(out)
end

describe("astar.grid_from_table", function()
  it("reads rows[y][x] with the default legend: 0 open, 1 blocked, '.', '#', '@'", function()
    local g = astar.grid_from_table({ { 0, 1, 0 }, { ".", "#", "@" } })
    assert.equal(".#.\n.##\n", passability(g))
    assert.equal(3, (g:size()))
    assert.equal(1, g:get_cost(1, 1))
  end)

  it("takes legend entries like grid_from_string's: true, false, cost, tag, table, default", function()
    local g = astar.grid_from_table({ { 0, 2, 3 }, { 4, 5, 9 } }, {
      [0] = false, [2] = 3.5, [3] = "mud", [4] = { cost = 2, tag = "road" }, [5] = true, default = { blocked = true },
    })
    assert.is_true(g:is_blocked(1, 1))
    assert.equal(3.5, g:get_cost(2, 1))
    assert.equal("mud", g:get_tag(3, 1))
    assert.equal(2, g:get_cost(1, 2)); assert.equal("road", g:get_tag(1, 2))
    assert.is_false(g:is_blocked(2, 2))
    assert.is_true(g:is_blocked(3, 2)) -- 9: the default entry
  end)

  it("finds the same paths as the same map given as text", function()
    local rows, text = {}, {}
    for y = 1, 12 do
      rows[y], text[y] = {}, {}
      for x = 1, 16 do
        local wall = (x == 8 and y < 11) or (y == 4 and x > 10)
        rows[y][x] = wall and 1 or 0
        text[y][x] = wall and "#" or "."
      end
      text[y] = table.concat(text[y])
    end
    local a, b = astar.grid_from_table(rows), astar.grid_from_string(table.concat(text, "\n"))
    assert.equal(b:to_string(), a:to_string())
    assert.equal(b:find_path(1, 1, 16, 1).cost, a:find_path(1, 1, 16, 1).cost)
  end)

  it("passes the grid options on, and names itself in their errors", function()
    local g = astar.grid_from_table({ { 0, 0 }, { 0, 0 } }, nil, { diagonal = "never", cell_size = 2 })
    assert.equal("never", g:diagonal())
    assert.equal(2, (g:world()))
    assert.equal("bad argument #3 to 'grid_from_table' (cell_size must be a finite number > 0, got -1)",
      error_of(astar.grid_from_table, { { 0 } }, nil, { cell_size = -1 }))
  end)

  it("raises on bad rows and legends, naming the place, at the caller's line", function()
    local cases = {
      { "rows must be a non-empty list of rows, got nil", nil },
      { "rows must be a non-empty list of rows, got an empty table", {} },
      { "rows[2] must be a list of values, got 5", { { 0 }, 5 } },
      { "rows[1] is empty (a row needs at least one value)", { {} } },
      { "rows[2] has 1 value, rows[1] has 2 (every row must be as long as the first)", { { 0, 0 }, { 0 } } },
      { "unknown value 7 at rows[1][2] (add it to the legend)", { { 0, 7 } } },
      { 'unknown value "x" at rows[2][1] (add it to the legend)', { { 0 }, { "x" } } },
      { "unknown value true at rows[1][1] (add it to the legend)", { { true } } },
    }
    for _, c in ipairs(cases) do
      assert.equal("bad argument #1 to 'grid_from_table' (" .. c[1] .. ")", error_of(astar.grid_from_table, c[2]))
    end
    local legends = {
      { "legend must be a table, got 3", 3 },
      { "legend[2].cost must be a finite number >= 0, got -1", { [2] = { cost = -1 } } },
      { "legend[2] has an unknown field \"costs\" (expected blocked, cost or tag)", { [2] = { costs = 1 } } },
      { "legend[2].blocked must be a boolean, got 1", { [2] = { blocked = 1 } } },
      { "legend[2].tag must be a string (tag name), got 1", { [2] = { tag = 1 } } },
      { "legend[2] must be true, false, a cost, a tag name or { blocked =, cost =, tag = }, got nan",
        { [2] = 0 / 0 } },
      { "legend keys must be numbers or strings, got true", { [true] = 1 } },
    }
    for _, c in ipairs(legends) do
      assert.equal("bad argument #2 to 'grid_from_table' (" .. c[1] .. ")",
        error_of(astar.grid_from_table, { { 0 } }, c[2]))
    end
    local line = debug.getinfo(1, "l").currentline + 1
    local ok, err = pcall(function() local g = astar.grid_from_table({ { 9 } }); return g end) -- no tail call
    assert.is_false(ok)
    assert.is_truthy(err:find(":" .. line .. ": bad argument #1 to 'grid_from_table'", 1, true), err)
  end)
end)

describe("astar.grid_from_table(rows, opts) with opts.legend #pure", function()
  it("reads the legend from opts.legend and the grid options from opts", function()
    local rows = { { 0, 2, 3 }, { 4, 1, 9 } }
    local legend = { [2] = 3.5, [3] = "mud", [4] = { cost = 2, tag = "road" }, default = { blocked = true } }
    local g = astar.grid_from_table(rows, { legend = legend, diagonal = "never", cell_size = 2 })
    local old = astar.grid_from_table(rows, legend, { diagonal = "never", cell_size = 2 })
    assert.equal("never", g:diagonal())
    assert.equal(2, (g:world()))
    assert.equal(old:to_string(), g:to_string())
    for y = 1, 2 do
      for x = 1, 3 do
        assert.equal(old:get_cost(x, y), g:get_cost(x, y))
        assert.equal(old:get_tag(x, y), g:get_tag(x, y))
      end
    end
    assert.equal(3.5, g:get_cost(2, 1))
    assert.is_true(g:is_blocked(3, 2))
  end)

  it("takes options without a legend, and a legend alone, in either form", function()
    local rows = { { 0, 1 }, { 0, 0 } }
    assert.equal("never", astar.grid_from_table(rows, { diagonal = "never" }):diagonal())
    assert.is_true(astar.grid_from_table(rows, { diagonal = "never" }):is_blocked(2, 1))
    local g = astar.grid_from_table({ { 0, 5 } }, { legend = { [5] = false } })
    assert.is_true(g:is_blocked(2, 1))
    assert.is_false(astar.grid_from_table({ { 0, 1 } }, { legend = { [1] = true } }):is_blocked(2, 1))
    -- the three-argument form still reads the second as the legend
    assert.is_true(astar.grid_from_table({ { 0, 5 } }, { [5] = false }, { diagonal = "always" }):is_blocked(2, 1))
    assert.is_true(astar.grid_from_table({ { 0, 5 } }, { [5] = false }):is_blocked(2, 1))
  end)

  it("names the second argument in its errors", function()
    assert.equal("bad argument #2 to 'grid_from_table' (opts.legend must be a table, got 3)",
      error_of(astar.grid_from_table, { { 0 } }, { legend = 3 }))
    assert.equal("bad argument #2 to 'grid_from_table' (legend[2].cost must be a finite number >= 0, got -1)",
      error_of(astar.grid_from_table, { { 0 } }, { legend = { [2] = { cost = -1 } } }))
    assert.equal("bad argument #2 to 'grid_from_table' (cell_size must be a finite number > 0, got -1)",
      error_of(astar.grid_from_table, { { 0 } }, { legend = {}, cell_size = -1 }))
    assert.equal("bad argument #2 to 'grid_from_table' (unknown option \"diagnoal\")",
      error_of(astar.grid_from_table, { { 0 } }, { legend = {}, diagnoal = "never" }))
    assert.equal("bad argument #1 to 'grid_from_table' (unknown value 7 at rows[1][1] (add it to the legend))",
      error_of(astar.grid_from_table, { { 7 } }, { legend = { [8] = true } }))
  end)
end)

describe("astar.hex_from_table", function()
  it("makes a hex grid with the hex options", function()
    local hx = astar.hex_from_table({ { 0, 1, 0 }, { 0, 0, 0 } }, nil, { layout = "odd_q" })
    assert.equal("odd_q", hx:layout())
    assert.is_true(hx:is_blocked(2, 1))
    assert.equal(hx:to_string(), astar.hex_from_table(hx:to_table(), nil, { layout = "odd_q" }):to_string())
    assert.equal("bad argument #1 to 'hex_from_table' (unknown value 3 at rows[1][1] (add it to the legend))",
      error_of(astar.hex_from_table, { { 3 } }))
    local h2 = astar.hex_from_table({ { 0, 3, 0 }, { 0, 0, 0 } }, { layout = "odd_q", legend = { [3] = false } })
    assert.equal(hx:to_string(), h2:to_string())
    assert.equal("bad argument #2 to 'hex_from_table' (opts.legend must be a table, got true)",
      error_of(astar.hex_from_table, { { 0 } }, { legend = true }))
  end)
end)

describe("grid:to_table", function()
  it("gives rows[y][x]: 1 blocked, 0 open, which grid_from_table reads back", function()
    local g = astar.grid_from_string("..#.\n#...\n..@.")
    local rows = g:to_table()
    assert.same({ { 0, 0, 1, 0 }, { 1, 0, 0, 0 }, { 0, 0, 1, 0 } }, rows)
    assert.equal(passability(g), passability(astar.grid_from_table(rows)))
    rows[1][1] = 1 -- a copy: the grid is untouched
    assert.is_false(g:is_blocked(1, 1))
    g:close()
    assert.equal("attempt to use a closed grid", error_of(g.to_table, g))
  end)
end)

describe("bulk edits", function()
  it("set_blocked_rect blocks and opens a rectangle, corners in either order", function()
    local g = astar.grid(6, 5)
    g:set_blocked_rect(5, 4, 2, 2, true)
    assert.equal("......\n.####.\n.####.\n.####.\n......\n", passability(g))
    g:set_blocked_rect(3, 3, 4, 3, false)
    assert.equal("......\n.####.\n.#..#.\n.####.\n......\n", passability(g))
    local hx = astar.hex(4, 4)
    hx:set_blocked_rect(2, 2, 3, 3, true)
    assert.is_true(hx:is_blocked(2, 2) and hx:is_blocked(3, 3) and not hx:is_blocked(4, 4))
  end)

  it("set_blocked_cells takes a list of {x, y}, repeats allowed", function()
    local g = astar.grid(4, 2)
    g:set_blocked_cells({ { 1, 1 }, { 4, 2 }, { 1, 1 } }, true)
    assert.equal("#...\n...#\n", passability(g))
    g:set_blocked_cells({}, true)
    g:set_blocked_cells({ { 1, 1 } }, false)
    assert.equal("....\n...#\n", passability(g))
  end)

  it("checks every cell first: an error changes nothing", function()
    local g = astar.grid(8, 8)
    assert.equal("bad argument #1 to 'set_blocked_cells' (cells[3] must be a cell {x, y} inside the 8x8 grid, got table)",
      error_of(g.set_blocked_cells, g, { { 1, 1 }, { 2, 2 }, { 9, 1 } }, true))
    assert.equal("bad argument #1 to 'set_blocked_cells' (cells[1] must be a cell {x, y} inside the 8x8 grid, got 5)",
      error_of(g.set_blocked_cells, g, { 5 }, true))
    assert.equal("bad argument #3 to 'set_blocked_rect' (x must be an integer in 1..8, got 9)",
      error_of(g.set_blocked_rect, g, 1, 1, 9, 1, true))
    assert.equal(("........\n"):rep(8), passability(g))
  end)

  it("is refused during a search, as set_blocked is", function()
    local g = astar.grid(8, 8)
    local msg
    g:find_path(1, 1, 8, 8, { heuristic = function()
      if not msg then msg = error_of(g.set_blocked_rect, g, 4, 4, 5, 5, true) end
      return 0
    end })
    assert.equal("cannot call 'set_blocked_rect': grid is being searched", msg)
    assert.is_false(g:is_blocked(4, 4))
  end)

  it("is one change: a strict query fails once, a restarting one restarts once, a repairing one repairs once", function()
    local g = astar.grid(30, 30)
    local strict = g:query(1, 1, 30, 30, { on_change = "fail", algorithm = "astar" })
    local q = g:query(1, 1, 30, 30, { algorithm = "astar", on_change = "restart" })
    local r = g:query(1, 1, 30, 30, { algorithm = "astar" })
    assert.equal("searching", strict:step(5)); assert.equal("searching", q:step(5))
    assert.equal("searching", r:step(5))
    g:set_blocked_rect(15, 1, 15, 29, true)
    assert.equal("changed", strict:step())
    assert.equal("found", q:step())
    assert.equal("found", r:step())
    local p = q:result()
    assert.equal(1, p.restarts)
    assert.equal(g:find_path(1, 1, 30, 30).cost, p.cost)
    local rp = r:result()
    assert.is_nil(rp.restarts)
    assert.equal(1, rp.repairs)
    assert.equal(p.cost, rp.cost)
  end)

  it("logs every changed cell: a distance field repairs from the log and matches a new one", function()
    local g = astar.grid(20, 20)
    local f = g:distances({ { 1, 1 } })
    g:set_blocked_rect(10, 1, 10, 18, true)
    g:set_blocked_cells({ { 3, 3 }, { 4, 4 }, { 5, 5 } }, true)
    assert.equal("repaired", f:update())
    local fresh = g:distances({ { 1, 1 } })
    for y = 1, 20 do
      for x = 1, 20 do assert.equal(fresh:get(x, y), f:get(x, y)) end
    end
  end)

  it("keeps the connectivity answers right (the labels see each cell)", function()
    local g = astar.grid(9, 5, { diagonal = "never" })
    assert.is_true(g:connected(1, 1, 9, 5))
    g:set_blocked_rect(5, 1, 5, 5, true)
    assert.is_false(g:connected(1, 1, 9, 5))
    g:set_blocked_cells({ { 5, 3 } }, false)
    assert.is_true(g:connected(1, 1, 9, 5))
    g:set_blocked_cells({ { 5, 3 }, { 7, 1 } }, true)
    assert.is_false(g:connected(1, 1, 9, 5))
  end)
end)
