-- The documentation is part of the product: every ```lua block of README.md
-- and of doc/*.md must run as it stands, and every ```c block must compile
-- with the core alone and run.  (spec/reference_spec.lua checks that
-- doc/reference.md documents everything the module exports.)
local load_string = loadstring or load -- 5.1 / LuaJIT: load takes a function

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

-- README.md and every doc/*.md, in a stable order
local function documents()
  local list = { "README.md" }
  local p = assert(io.popen("ls doc/*.md 2>/dev/null"))
  for name in p:lines() do list[#list + 1] = name end
  p:close()
  return list
end

local function blocks(text, lang)
  local list = {}
  for body in text:gmatch("```" .. lang .. "\n(.-)```") do list[#list + 1] = body end
  return list
end

-- GitHub's anchor for a heading: lowercase, punctuation dropped (letters,
-- digits, spaces, '-' and '_' and any non-ASCII byte kept), spaces to '-'.
-- (Enough for these documents: no emoji, no duplicate headings.)
local function slug(heading)
  local s = heading:gsub("`", ""):lower()
  -- Latin-1 capitals in UTF-8 (\195\128..\195\158, "Ö") lowercase too
  s = s:gsub("\195([\128-\150\152-\158])", function(c) return "\195" .. string.char(c:byte() + 32) end)
  s = s:gsub("[^%w%s%-_\128-\255]", "")
  return (s:gsub(" ", "-"))
end

local function anchors(text)
  local set = {}
  for line in text:gmatch("[^\n]+") do
    local h = line:match("^#+%s+(.-)%s*$")
    if h then set[slug(h)] = true end
  end
  return set
end

describe("documentation", function()
  it("README.md is a guide of at most 500 lines, none wider than 140 columns #pure", function()
    local _, lines = read("README.md"):gsub("\n", "")
    assert.is_true(lines <= 500, ("README.md has %d lines"):format(lines))
    local n, wide = 0, {}
    for line in read("README.md"):gmatch("([^\n]*)\n") do
      n = n + 1
      -- columns are characters: UTF-8 continuation bytes do not count
      local _, cols = line:gsub("[^\128-\191]", "")
      if cols > 140 then wide[#wide + 1] = ("line %d: %d columns"):format(n, cols) end
    end
    assert(#wide == 0, "README.md lines wider than 140 columns:\n" .. table.concat(wide, "\n"))
  end)

  it("links only to files and headings that exist #pure", function()
    local broken = {}
    local p = assert(io.popen("ls README.md CHANGELOG.md doc/*.md 2>/dev/null"))
    for name in p:lines() do
      local dir = name:match("^(.*)/") or "."
      local text = read(name)
      for target in text:gmatch("%]%(([^)%s]+)%)") do
        if not target:match("^%a+:") then -- not http:, https:, mailto:
          local file, anchor = target:match("^([^#]*)#?(.*)$")
          local path = file == "" and name or (dir .. "/" .. file)
          local f = io.open(path, "rb")
          if not f then
            broken[#broken + 1] = name .. ": " .. target .. " (no file " .. path .. ")"
          else
            local body = f:read("*a")
            f:close()
            if anchor ~= "" and path:match("%.md$") and not anchors(body)[anchor] then
              broken[#broken + 1] = name .. ": " .. target .. " (no heading #" .. anchor .. ")"
            end
          end
        end
      end
    end
    p:close()
    assert(#broken == 0, "broken links:\n" .. table.concat(broken, "\n"))
  end)
end)

describe("documentation examples", function()
  local docs = documents()

  -- The core, compiled once for every C block (with the blocks' flags, one
  -- object per file of src/sources.mk's CORE_SRC) into a temporary
  -- directory: core_objects() -> the objects and libraries to link with.
  local obj_dir, core_link
  local function core_objects(cc)
    if core_link then return core_link end
    local helpers = require("helpers")
    local list = assert(dofile("tools/sources.lua").read())
    obj_dir = os.tmpname()
    os.remove(obj_dir)
    local cmd, objs = { "mkdir -p " .. helpers.quote(obj_dir) }, {}
    for _, src in ipairs(list.core) do
      local obj = obj_dir .. "/" .. src:match("([^/]+)%.c$") .. ".o"
      cmd[#cmd + 1] = ("%s -std=c99 -Wall -Wextra -Wpedantic -Werror -Isrc -c %s -o %s")
        :format(cc, src, helpers.quote(obj))
      objs[#objs + 1] = helpers.quote(obj)
    end
    local ok, out = helpers.run(table.concat(cmd, " && "))
    assert(ok, "the core did not compile:\n" .. out)
    core_link = table.concat(objs, " ") .. " " .. table.concat(list.libs, " ")
    return core_link
  end
  teardown(function()
    if obj_dir then
      local helpers = require("helpers")
      helpers.run("rm -rf " .. helpers.quote(obj_dir))
    end
  end)

  it("include README.md and doc/reference.md #pure", function()
    local seen = {}
    for _, name in ipairs(docs) do seen[name] = true end
    assert.is_true(seen["README.md"] and seen["doc/reference.md"])
  end)

  for _, name in ipairs(docs) do
    local text = read(name)

    it(name .. ": every Lua example runs", function()
      local list = blocks(text, "lua")
      if name == "README.md" or name == "doc/reference.md" then assert.is_true(#list >= 4) end
      for i, body in ipairs(list) do
        local chunk, err = load_string(body, "=" .. name .. " block " .. i)
        assert.is_not_nil(chunk, err)
        local real_print = _G.print
        _G.print = function() end -- examples print maps; keep the spec output clean
        local ok, run_err = pcall(chunk)
        _G.print = real_print
        assert.is_true(ok, ("%s Lua block %d failed: %s"):format(name, i, tostring(run_err)))
      end
    end)

    -- Each ```c block is the body of a main(): compiled with the core alone
    -- (-std=c99 -Wall -Wextra -Wpedantic -Werror; the core compiled once
    -- with the same flags, core_objects above), linked, run, and its CHECKs
    -- must hold.  A compile of the core: make test-system (#system).
    local c_blocks = blocks(text, "c")
    if #c_blocks > 0 then
      it(name .. ": every C example compiles and runs #system", function()
        local cc = os.getenv("CC") or "cc"
        local helpers = require("helpers")
        -- the core's objects and its libraries, as src/sources.mk lists them
        local sources = core_objects(cc)
        for i, body in ipairs(c_blocks) do
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
          local cmd = ("%s -std=c99 -Wall -Wextra -Wpedantic -Werror -Isrc -o %s %s %s 2>&1 && %s 2>&1")
            :format(cc, exe, src, sources, exe)
          local p = assert(io.popen(helpers.unsanitized(cmd)))
          local out = p:read("*a")
          local ok = p:close()
          os.remove(src)
          os.remove(exe)
          assert.is_true(ok == true or ok == 0, ("%s C block %d: %s"):format(name, i, out))
        end
      end)
    end
  end
end)
