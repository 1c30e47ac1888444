-- Hostile input to astar.grid_from_table(rows, opts) and
-- astar.hex_from_table(rows, opts), the two-argument form with the legend in
-- opts.legend: every kind of wrong value as opts.legend, as each grid option
-- beside a legend, as a legend entry, and the two forms told apart.  Each
-- refused call raises a string naming the function and argument #2 at the
-- caller's position; a valid one makes the same grid as the three-argument
-- form.
local astar = require("astar")

-- hostile.common's values where the native module loads (it makes native
-- userdata); on the pure-Lua backend the same kinds without them
local has_common, C = pcall(require, "hostile.common")
local VALUES, NONE = {}, {}
if has_common then
  VALUES, NONE = C.VALUES, C.NONE
else
  for _, v in ipairs({ "1", "abc", "", {}, print, true, false, 1.5, 0.5, -1 / math.huge, 0, -1, 2 ^ 31, 2 ^ 53,
    0 / 0, math.huge, -math.huge, { 1, 2 }, { x = 1 }, astar.grid(2, 2), coroutine.create(function() end) }) do
    VALUES[#VALUES + 1] = { label = tostring(v), v = v }
  end
  VALUES[#VALUES + 1] = { label = "nil", v = nil }
end

-- the error message of fn(...) (position stripped), or "no error"
local function outcome(fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then return "no error" end
  if type(err) == "string" then err = err:gsub("^[^\n]-:%d+: ", "", 1) end
  return err
end

local FUNCS = { "grid_from_table" }
if astar.backend == "native" then FUNCS[2] = "hex_from_table" end

-- what the three-argument form says of the same legend and options, with
-- its argument numbers moved to #2 (the options' #3, the legend's #2)
local function old_form(fname, legend, opts)
  local want = outcome(astar[fname], { { 0, 1 } }, legend, opts)
  return (want:gsub("bad argument #3", "bad argument #2"):gsub("%(legend must", "(opts.legend must"))
end

describe("grid_from_table(rows, opts) against hostile input #pure", function()
  for _, fname in ipairs(FUNCS) do
    local make = astar[fname]
    local option = fname == "grid_from_table" and "diagonal" or "layout"

    it(fname .. ": every wrong value as opts.legend", function()
      for _, e in ipairs(VALUES) do
        if e.v ~= NONE then
          local got = outcome(make, { { 0, 1 } }, { legend = e.v, cell_size = 1 })
          local want = old_form(fname, e.v, { cell_size = 1 })
          assert.equal(want, got, e.label)
          if got ~= "no error" then
            assert.is_truthy(got:find("bad argument #2 to '" .. fname .. "'", 1, true), e.label .. ": " .. got)
          end
        end
      end
    end)

    it(fname .. ": every wrong value as a grid option beside a legend", function()
      for _, key in ipairs({ option, "cell_size", "origin" }) do
        for _, e in ipairs(VALUES) do
          if e.v ~= NONE then
            local got = outcome(make, { { 0, 1 } }, { legend = { [1] = true }, [key] = e.v })
            local want = old_form(fname, { [1] = true }, { [key] = e.v })
            assert.equal(want, got, key .. " = " .. e.label)
          end
        end
      end
    end)

    it(fname .. ": every wrong value as a legend entry inside opts.legend", function()
      for _, e in ipairs(VALUES) do
        if e.v ~= NONE and e.v ~= nil then
          local got = outcome(make, { { 0, 1 } }, { legend = { [1] = e.v } })
          assert.equal(old_form(fname, { [1] = e.v }), got, e.label)
        end
      end
    end)

    it(fname .. ": a table without an option's name is a legend; a third argument makes the second one", function()
      local a = make({ { 0, 5 } }, { [5] = false })
      assert.is_true(a:is_blocked(2, 1))
      -- the three-argument form: a legend with a key named "legend" stays a legend
      local b = make({ { "legend", 0 } }, { legend = false }, {})
      assert.is_true(b:is_blocked(1, 1))
      local c = make({ { 0, 5 } }, { legend = { [5] = false } }, nil)
      assert.is_true(c:is_blocked(2, 1))
      assert.equal("bad argument #2 to '" .. fname .. "' (legend[\"legend\"] has an unknown field 5 "
        .. "(expected blocked, cost or tag))", outcome(make, { { 0 } }, { legend = { [5] = false } }, {}))
    end)
  end
end)
