-- The README is part of the product: every ```lua block in it must run, and
-- every function and method the module registers must have a section.
local astar = require("astar")
local load_string = loadstring or load -- 5.1 / LuaJIT: load takes a function

local function read_readme()
  local f = assert(io.open("README.md", "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

local function lua_blocks(text)
  local blocks = {}
  for body in text:gmatch("```lua\n(.-)```") do blocks[#blocks + 1] = body end
  return blocks
end

describe("README", function()
  local text = read_readme()

  it("has runnable Lua examples", function()
    local blocks = lua_blocks(text)
    assert.is_true(#blocks >= 4)
    for i, body in ipairs(blocks) do
      local chunk, err = load_string(body, "=README block " .. i)
      assert.is_not_nil(chunk, err)
      local real_print = _G.print
      _G.print = function() end -- examples print maps; keep the spec output clean
      local ok, run_err = pcall(chunk)
      _G.print = real_print
      assert.is_true(ok, ("README block %d failed: %s"):format(i, tostring(run_err)))
    end
  end)

  -- Each ```c block is the body of a main(): compiled with the core alone
  -- (-std=c99 -Wall -Wextra -Wpedantic -Werror), run, and its CHECKs must
  -- hold.
  it("has C examples that compile and run", function()
    local blocks = {}
    for body in text:gmatch("```c\n(.-)```") do blocks[#blocks + 1] = body end
    assert.is_true(#blocks >= 2)
    local cc = os.getenv("CC") or "cc"
    local sources = "src/util.c src/graph.c src/grid.c src/search.c src/heuristics.c src/components.c"
    local helpers = require("helpers")
    for i, body in ipairs(blocks) do
      local includes, code = {}, {}
      for line in body:gmatch("([^\n]*)\n") do
        if line:match("^#include") then includes[#includes + 1] = line else code[#code + 1] = line end
      end
      local src, exe = os.tmpname() .. ".c", os.tmpname()
      local f = assert(io.open(src, "wb"))
      f:write("#include <stdio.h>\n#include <stdlib.h>\n", table.concat(includes, "\n"), "\n",
        "#define CHECK(c) do { if (!(c)) { fprintf(stderr, \"CHECK failed: %s\\n\", #c); exit(1); } } while (0)\n",
        "int main(void) {\n", table.concat(code, "\n"), "\nreturn 0;\n}\n")
      f:close()
      local cmd = ("%s -std=c99 -Wall -Wextra -Wpedantic -Werror -Isrc -o %s %s %s -lm 2>&1 && %s 2>&1")
        :format(cc, exe, src, sources, exe)
      local p = assert(io.popen(helpers.unsanitized(cmd)))
      local out = p:read("*a")
      local ok = p:close()
      os.remove(src)
      os.remove(exe)
      assert.is_true(ok == true or ok == 0, ("README C block %d: %s"):format(i, out))
    end
  end)

  it("documents every module function", function()
    for name, v in pairs(astar) do
      if type(v) == "function" then
        assert.is_truthy(text:find("astar." .. name .. "(", 1, true), "astar." .. name .. " is not documented")
      end
    end
  end)

  it("documents every method of every type", function()
    local grid = astar.grid(2, 2)
    local objects = {
      graph = astar.graph(), grid = grid, field = astar.field(grid),
      query = grid:query(1, 1, 2, 2), heuristic = astar.landmarks(grid, 1),
    }
    for _, obj in pairs(objects) do
      local methods = getmetatable(obj).__index
      for name in pairs(methods) do
        assert.is_truthy(text:find(":" .. name .. "(", 1, true), name .. " is not documented")
      end
    end
  end)
end)
