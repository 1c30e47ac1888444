-- Values in error messages: a long string is cut after 37 characters and
-- "...", the same on every Lua, wherever the binding describes a value.
local astar = require("astar")
local error_of = require("helpers").error_of
local H = require("hostile.common")
local new_graph, graph_ok, new_grid, grid_ok = H.new_graph, H.graph_ok, H.new_grid, H.grid_ok
local H_MUST = H.H_MUST

local LONG = string.rep("x", 50)
local LONG_DESC = '"' .. string.rep("x", 37) .. '..."' -- describe()'s documented cut

describe("error messages cut long strings after 37 characters", function()
  local g, gr
  before_each(function()
    g = new_graph()
    gr = new_grid()
  end)
  after_each(function()
    graph_ok(g)
    grid_ok(gr)
  end)
  it("a long heuristic name", function()
    assert.equal("bad argument #3 to 'find_path' (" .. H_MUST .. ", got " .. LONG_DESC .. ")",
      error_of(function() return g:find_path(1, 3, { heuristic = LONG }) end))
  end)
  it("a long stop name", function()
    assert.equal("bad argument #5 to 'find_path' (stop must be \"expand\", \"first_hit\" or \"optimal\", got " .. LONG_DESC .. ")",
      error_of(function() return gr:find_path(1, 1, 2, 2, { stop = LONG }) end))
  end)
  it("a long unknown option", function()
    assert.equal("bad argument #3 to 'find_path' (unknown option " .. LONG_DESC .. ")",
      error_of(function() return g:find_path(1, 3, { [LONG] = 1 }) end))
  end)
  it("a long tag factor", function()
    assert.equal("bad argument #3 to 'find_path' (costs.door must be a finite number >= 0 or false, got " .. LONG_DESC .. ")",
      error_of(function() return g:find_path(1, 3, { costs = { door = LONG } }) end))
  end)
  it("a long diagonal rule", function()
    assert.equal("bad argument #3 to 'grid' (diagonal must be \"never\", \"no_corner_cutting\", "
      .. "\"one_obstacle\" or \"always\", got " .. LONG_DESC .. ")", error_of(astar.grid, 3, 3, { diagonal = LONG }))
  end)
  it("a long legend key", function()
    assert.equal("bad argument #2 to 'grid_from_string' (legend keys must be single characters or \"default\", got " .. LONG_DESC .. ")",
      error_of(astar.grid_from_string, "..", { [LONG] = true }))
  end)
  it("a long penalty", function()
    assert.equal("bad argument #5 to 'find_path' (penalty must be an astar.Field, got " .. LONG_DESC .. ")",
      error_of(function() return gr:find_path(1, 1, 2, 2, { penalty = LONG }) end))
  end)
  it("a heuristic returning a long string", function()
    assert.equal("heuristic returned " .. LONG_DESC .. " for node 1 (expected a finite number >= 0)",
      error_of(function() return g:find_path(1, 3, { heuristic = function() return LONG end }) end))
  end)
  it("exactly 40 characters are not cut", function()
    local s40 = string.rep("y", 40)
    assert.equal("bad argument #3 to 'find_path' (unknown option \"" .. s40 .. "\")",
      error_of(function() return g:find_path(1, 3, { [s40] = 1 }) end))
  end)
end)
