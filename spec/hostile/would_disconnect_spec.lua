-- would_disconnect's list argument and its calling contexts: every bad
-- entry named, raw reads (no metamethod runs), huge and holed lists, a
-- call from inside a search of the same grid, a closed grid; the object
-- stays unchanged and usable after each refusal.
local astar = require("astar")
local error_of = require("helpers").error_of

local function corridor()
  local g = astar.grid_from_string("#########\n.........\n#########")
  return g
end

describe("hostile would_disconnect", function()
  it("names the bad entry of the list, whatever it is", function()
    local g = corridor()
    local bad = {
      { { { 1, 2 }, { 0, 2 } }, "cells[2] must be a cell {x, y} inside the 9x3 grid, got table" },
      { { { 1, 2 }, { 10, 2 } }, "cells[2] must be a cell {x, y} inside the 9x3 grid, got table" },
      { { { 1.5, 2 } }, "cells[1] must be a cell {x, y} inside the 9x3 grid, got table" },
      { { { 1 } }, "cells[1] must be a cell {x, y} inside the 9x3 grid, got table" },
      { { "1,2" }, 'cells[1] must be a cell {x, y} inside the 9x3 grid, got "1,2"' },
      { { { 1, 2 }, 7 }, "cells[2] must be a cell {x, y} inside the 9x3 grid, got 7" },
      { { { "1", "2" } }, "cells[1] must be a cell {x, y} inside the 9x3 grid, got table" },
      { { { 0 / 0, 2 } }, "cells[1] must be a cell {x, y} inside the 9x3 grid, got table" },
    }
    for _, case in ipairs(bad) do
      assert.equal("bad argument #3 to 'would_disconnect' (" .. case[2] .. ")",
        error_of(g.would_disconnect, g, 5, 2, case[1]))
    end
    assert.equal("bad argument #1 to 'would_disconnect' (x must be an integer in 1..9, got 0)",
      error_of(g.would_disconnect, g, 0, 2, {}))
    -- unchanged and usable
    assert.is_false(g:is_blocked(5, 2))
    assert.is_true(g:would_disconnect(5, 2, { { 1, 2 }, { 9, 2 } }))
    assert.is_true(g:connected(1, 2, 9, 2))
  end)

  it("reads the list raw: metamethods never run, a hole ends it where rawlen says", function()
    local g = corridor()
    local touched = false
    local list = setmetatable({ { 1, 2 }, { 9, 2 } }, {
      __index = function() touched = true end,
      __len = function() touched = true; return 50 end,
    })
    assert.is_true(g:would_disconnect(5, 2, list))
    local entry = setmetatable({}, { __index = function() touched = true; return 2 end })
    assert.truthy(error_of(g.would_disconnect, g, 5, 2, { { 1, 2 }, entry }))
    assert.is_false(touched)
  end)

  it("a long list: the same answer as two of its points", function()
    local g = corridor()
    local list = {}
    for i = 1, 100000 do list[i] = { i % 2 == 0 and 1 or 9, 2 } end
    assert.is_true(g:would_disconnect(5, 2, list))
    for i = 1, 100000 do list[i] = { 1, 2 } end
    assert.is_false(g:would_disconnect(5, 2, list)) -- one point, many times
  end)

  it("graphs: the bad node named, the graph unchanged", function()
    local g = astar.graph()
    for i = 1, 3 do g:add_node(i, 0) end
    g:connect(1, 2, 1)
    g:connect(2, 3, 1)
    assert.equal("bad argument #2 to 'would_disconnect' (nodes[2] must be a node id in 1..3, got 4)",
      error_of(g.would_disconnect, g, 2, { 1, 4 }))
    assert.equal("bad argument #2 to 'would_disconnect' (nodes[1] must be a node id in 1..3, got 1.5)",
      error_of(g.would_disconnect, g, 2, { 1.5 }))
    assert.equal("bad argument #2 to 'would_disconnect' (table (a list of nodes) expected, got nil)",
      error_of(g.would_disconnect, g, 2, nil))
    assert.is_true(g:would_disconnect(2, { 1, 3 }))
    assert.is_true(g:is_enabled(2))
    assert.is_true(g:connected(1, 3))
  end)

  it("from inside a search of the same grid (edited or never edited): answers, changes nothing", function()
    for _, edited in ipairs({ false, true }) do
      local g = astar.grid(9, 1)
      if edited then g:set_blocked(1, 1, true); g:set_blocked(1, 1, false) end
      local answers = {}
      local p = g:find_path(1, 1, 9, 1, {
        cost = function(_, _, _, _, c)
          answers[#answers + 1] = g:would_disconnect(5, 1, { { 1, 1 }, { 9, 1 } })
          return c
        end,
      })
      assert.equal(9, #p.nodes)
      assert.is_true(#answers > 0)
      for _, a in ipairs(answers) do assert.is_true(a) end
      assert.is_false(g:would_disconnect(1, 1, { { 2, 1 }, { 9, 1 } }))
    end
  end)

  it("a closed grid refuses", function()
    local g = corridor()
    g:close()
    assert.equal("attempt to use a closed grid", error_of(g.would_disconnect, g, 5, 2, {}))
  end)
end)
