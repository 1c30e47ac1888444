-- Rule 7: os.exit(0, true) from a callback inside a search exits 0 with no
-- definite leak (valgrind; skipped without it).  The rules:
-- spec/lifetime/common.lua.  Heavy (valgrind): tagged #system, run by make
-- test-system (not under make memcheck: it starts valgrind itself).

-- The interpreter running this spec (busted --lua=...): arg[-1] when set.
local function lua_binary()
  local i, bin = -1, nil
  while arg and arg[i] do bin, i = arg[i], i - 1 end
  return bin or "lua5.4"
end

describe("lifetime: os.exit(0, true) from a callback inside a search #system", function()
  local have = os.execute(require("helpers").unsanitized("command -v valgrind >/dev/null 2>&1"))
  if not (have == true or have == 0) then
    pending("skipped: needs valgrind on PATH (Debian: apt-get install valgrind)")
    return
  end

  local scripts = {
    { "grid:find_path, from the heuristic", [[
      local g = astar.grid(32, 32)
      g:find_path(1, 1, 32, 32, { heuristic = function() os.exit(0, true) end })
    ]] },
    { "graph:find_path, from the cost callback", [[
      local g = astar.graph()
      for i = 1, 50 do g:add_node(i, 0) end
      for i = 1, 49 do g:connect(i, i + 1, 1) end
      g:find_path(1, 50, { cost = function() os.exit(0, true) end })
    ]] },
    { "q:step, from the cost callback, with a penalty field", [[
      local g = astar.grid(32, 32)
      local q = g:query(1, 1, 32, 32, { penalty = astar.field(g, 1), cost = function() os.exit(0, true) end })
      q:step()
    ]] },
    { "grid:distances, from the cost callback", [[
      local g = astar.grid(32, 32)
      g:distances({ { 1, 1 } }, { cost = function() os.exit(0, true) end })
    ]] },
  }
  for _, s in ipairs(scripts) do
    it(s[1] .. ": exits 0, no definite leak under valgrind", function()
      local name = os.tmpname()
      local f = assert(io.open(name, "wb"))
      f:write('local astar = require("astar")\n', s[2], '\nprint("not reached")\nos.exit(3)\n')
      f:close()
      local cmd = ("LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/?.so;;' valgrind -q --leak-check=full "
        .. "--errors-for-leak-kinds=definite --error-exitcode=1 %s %s 2>&1; echo \"exit=$?\"")
        :format(lua_binary(), name)
      local p = assert(io.popen(require("helpers").unsanitized(cmd)))
      local out = p:read("*a")
      p:close()
      os.remove(name)
      local code = tonumber(out:match("exit=(%d+)%s*$"))
      assert.is_nil(out:find("not reached", 1, true), out)
      assert.is_nil(out:find("definitely lost", 1, true), out)
      assert.equal(0, code, out)
    end)
  end
end)
