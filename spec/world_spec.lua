-- World coordinates of square grids (cell_size, origin, to_world, to_cell,
-- world; src/lsmooth.c).
local astar = require("astar")
local maps = require("astar.maps")
local error_of = require("helpers").error_of

describe("world coordinates", function()
  it("map cell centres to the world and back, for every cell #pure", function()
    local g = astar.grid(7, 5, { cell_size = 32, origin = { 100, -40 } })
    for y = 1, 5 do
      for x = 1, 7 do
        local wx, wy = g:to_world(x, y)
        assert.equal(100 + (x - 0.5) * 32, wx)
        assert.equal(-40 + (y - 0.5) * 32, wy)
        local cx, cy = g:to_cell(wx, wy)
        assert.equal(x, cx)
        assert.equal(y, cy)
        -- any point of the cell's square maps to it
        assert.same({ x, y }, { g:to_cell(wx - 15.9, wy + 15.9) })
      end
    end
    assert.same({ 32, 100, -40 }, { g:world() })
  end)

  it("puts borders in the cell right of or below them, and returns nil outside #pure", function()
    local g = astar.grid(4, 3, { cell_size = 2, origin = { 10, 20 } })
    assert.same({ 1, 1 }, { g:to_cell(10, 20) })          -- the top-left corner
    assert.same({ 2, 1 }, { g:to_cell(12, 20) })          -- the border x = 12
    assert.same({ 4, 3 }, { g:to_cell(17.999, 25.999) })
    assert.is_nil(g:to_cell(18, 21))                       -- the right edge is outside
    assert.is_nil(g:to_cell(11, 26))                       -- the bottom edge too
    assert.is_nil(g:to_cell(9.999, 21))
    assert.is_nil(g:to_cell(11, 19.999))
    assert.is_nil(g:to_cell(-1e308, 1e308))
    assert.equal(1, select("#", g:to_cell(100, 100)))
  end)

  it("defaults to cells of size 1 at the origin #pure", function()
    local g = astar.grid(3, 3)
    assert.same({ 0.5, 2.5 }, { g:to_world(1, 3) })
    assert.same({ 3, 1 }, { g:to_cell(2.2, 0.7) })
    assert.same({ 1, 0, 0 }, { g:world() })
  end)

  it("comes with grid_from_string and maps.parse #pure", function()
    local g = astar.grid_from_string("..\n.#\n", nil, { cell_size = 16, origin = { 8, 8 } })
    assert.same({ 32, 32 }, { g:to_world(2, 2) })
    assert.is_true(g:is_blocked(g:to_cell(33, 33)))
    local m = maps.parse("type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n",
      { cell_size = 0.5, origin = { -1, -1 }, diagonal = "never" })
    assert.same({ -0.75, -0.75 }, { m:to_world(1, 1) })
    assert.equal("never", m:diagonal())
    assert.equal("bad argument #2 to 'parse' (cell_size must be a finite number > 0, got 0)",
      error_of(maps.parse, "type octile\nheight 1\nwidth 1\nmap\n.\n", { cell_size = 0 }))
    assert.equal("bad argument #2 to 'parse' (unknown option \"size\")",
      error_of(maps.parse, "type octile\nheight 1\nwidth 1\nmap\n.\n", { size = 1 }))
  end)

  it("refuses bad frames and bad points with the argument named #pure", function()
    local cases = {
      { { cell_size = 0 }, "cell_size must be a finite number > 0, got 0" },
      { { cell_size = -2 }, "cell_size must be a finite number > 0, got -2" },
      { { cell_size = 0 / 0 }, "cell_size must be a finite number > 0, got nan" },
      { { cell_size = math.huge }, "cell_size must be a finite number > 0, got inf" },
      { { cell_size = "8" }, 'cell_size must be a finite number > 0, got "8"' },
      { { origin = 3 }, "origin must be a table {x, y} of two finite numbers, got 3" },
      { { origin = "0,0" }, 'origin must be a table {x, y} of two finite numbers, got "0,0"' },
      -- the bad coordinate by name, with its value
      { { origin = { 0 / 0, 0 } }, "origin[1] must be a finite number, got nan" },
      { { origin = { 1, 0 / 0 } }, "origin[2] must be a finite number, got nan" },
      { { origin = { "1", 2 } }, 'origin[1] must be a finite number, got "1"' },
      { { origin = { 1, math.huge } }, "origin[2] must be a finite number, got inf" },
      { { origin = { -math.huge, 1 } }, "origin[1] must be a finite number, got -inf" },
      { { origin = { 1 } }, "origin[2] must be a finite number, got nil" },
      { { origin = {} }, "origin[1] must be a finite number, got nil" },
      { { origin = { nil, 2 } }, "origin[1] must be a finite number, got nil" },
      { { origin = { 1, {} } }, "origin[2] must be a finite number, got table" },
      -- exactly two numbers: nothing else in the table
      { { origin = { 1, 2, 3 } }, "origin must be a table {x, y} of two finite numbers, got a table with key 3" },
      { { origin = { x = 1, 2 } }, 'origin must be a table {x, y} of two finite numbers, got a table with key "x"' },
      { { origin = { 1, 2, n = 2 } }, 'origin must be a table {x, y} of two finite numbers, got a table with key "n"' },
      { { origin = { [0] = 0, 1, 2 } }, "origin must be a table {x, y} of two finite numbers, got a table with key 0" },
      { { origin = { [1.5] = 0, 1, 2 } }, "origin must be a table {x, y} of two finite numbers, got a table with key 1.5" },
      { { world = 1 }, 'unknown option "world"' },
    }
    for _, c in ipairs(cases) do
      assert.equal("bad argument #3 to 'grid' (" .. c[2] .. ")", error_of(astar.grid, 2, 2, c[1]))
      assert.equal("bad argument #3 to 'grid_from_string' (" .. c[2] .. ")",
        error_of(astar.grid_from_string, "..", nil, c[1]))
    end
    local g = astar.grid(3, 3, { cell_size = 4 })
    assert.equal("bad argument #1 to 'to_cell' (x must be a finite number, got nan)",
      error_of(function() return g:to_cell(0 / 0, 1) end))
    assert.equal("bad argument #2 to 'to_cell' (y must be a finite number, got inf)",
      error_of(function() return g:to_cell(1, math.huge) end))
    assert.equal("bad argument #1 to 'to_cell' (x must be a finite number, got -inf)",
      error_of(function() return g:to_cell(-math.huge, 1) end))
    assert.equal("bad argument #1 to 'to_cell' (number expected, got string)",
      error_of(function() return g:to_cell("1", 1) end))
    assert.equal("bad argument #2 to 'to_cell' (number expected, got no value)",
      error_of(function() return g:to_cell(1) end))
    assert.equal("bad argument #1 to 'to_world' (x must be an integer in 1..3, got 4)",
      error_of(function() return g:to_world(4, 1) end))
    assert.equal("bad argument #2 to 'to_world' (y must be an integer in 1..3, got 0.5)",
      error_of(function() return g:to_world(1, 0.5) end))
    -- the grid is untouched and usable
    assert.same({ 2, 2 }, { g:to_world(1, 1) })
    g:close()
    assert.equal("attempt to use a closed grid", error_of(function() return g:to_cell(1, 1) end))
  end)
end)
