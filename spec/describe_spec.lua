-- astar.describe (internal): how the Lua helpers print values in error
-- messages, the same way the C binding does.  Numbers: integers exactly,
-- integral floats below 2^63 without exponent or decimals, other floats
-- with %.14g, nan / inf / -inf by name; on Lua 5.1, 5.3, 5.4 and LuaJIT.
local astar = require("astar")
local D = require("astar.describe")
local value = D.value

describe("describe.value", function()
  it("prints integers (Lua 5.3+ subtype) exactly, the limits included", function()
    if not math.type then
      pending("no integer subtype on " .. _VERSION)
      return
    end
    assert.equal("9223372036854775807", value(math.maxinteger))
    assert.equal("-9223372036854775808", value(math.mininteger))
    assert.equal("9007199254740993", value(math.tointeger(2 ^ 53) + 1))  -- not a double
    assert.equal("0", value(0))
    assert.equal("-1", value(-1))
    assert.equal("65536", value(65536))
  end)

  it("prints integral floats below 2^63 without exponent or decimals", function()
    assert.equal("9223372036854774784", value(2 ^ 63 - 1024))  -- the largest double below 2^63
    assert.equal("-9223372036854774784", value(-(2 ^ 63 - 1024)))
    assert.equal("1000000000000000", value(1e15))
    assert.equal("9007199254740992", value(2 ^ 53))
    assert.equal("2147483648", value(2 ^ 31))
    assert.equal("3", value(3.0))
    assert.equal("-3", value(-3.0))
    assert.equal("0", value(0.0))
    assert.equal("-0", value(-1 / math.huge))
  end)

  it("prints other floats with %.14g", function()
    assert.equal("0.5", value(0.5))
    assert.equal("-1.5", value(-1.5))
    assert.equal("1e+300", value(1e300))
    assert.equal("1e+308", value(1e308))
    assert.equal("9.2233720368548e+18", value(2 ^ 63))           -- not below 2^63
    assert.equal("-9.2233720368548e+18", value(-2 ^ 63))
    assert.equal("1.844674407371e+19", value(2 ^ 64))
    assert.equal("0.1", value(0.1))
    assert.equal("3.1415926535898", value(math.pi))
    assert.equal("1e-300", value(1e-300))
    assert.equal("4.9406564584125e-324", value(5e-324))
  end)

  it("names nan, inf and -inf", function()
    assert.equal("nan", value(0 / 0))
    assert.equal("nan", value(-(0 / 0)))
    assert.equal("inf", value(math.huge))
    assert.equal("-inf", value(-math.huge))
  end)

  it("quotes strings, cut after 37 characters", function()
    assert.equal('"abc"', value("abc"))
    assert.equal('""', value(""))
    assert.equal('"1"', value("1"))
    assert.equal('"' .. ("x"):rep(40) .. '"', value(("x"):rep(40)))
    assert.equal('"' .. ("x"):rep(37) .. '..."', value(("x"):rep(41)))
  end)

  it("names booleans and nil, and other values by type", function()
    assert.equal("true", value(true))
    assert.equal("false", value(false))
    assert.equal("nil", value(nil))
    assert.equal("table", value({}))
    assert.equal("table", value(setmetatable({}, { __tostring = function() return "x" end, __name = "T" })))
    assert.equal("function", value(print))
    assert.equal("astar.Grid", value(astar.grid(1, 1)))
    assert.equal("astar.Graph", value(astar.graph()))
  end)
end)

describe("describe.type", function()
  it("names our userdata by __name, everything else by type()", function()
    assert.equal("astar.Grid", D.type(astar.grid(1, 1)))
    assert.equal("astar.Field", D.type(astar.field(astar.grid(1, 1))))
    assert.equal("number", D.type(1))
    assert.equal("table", D.type(setmetatable({}, { __name = "astar.Grid" })))  -- tables are tables
  end)

  it("reads the real metatable raw: a __metatable or __index there runs no code", function()
    assert.equal(getmetatable(astar.grid(1, 1)), D.getmetatable(astar.grid(1, 1)))
    local mt = { __metatable = "locked" }
    local t = setmetatable({}, mt)
    assert.equal("locked", getmetatable(t))
    if debug and debug.getmetatable then assert.equal(mt, D.getmetatable(t)) end
  end)
end)
