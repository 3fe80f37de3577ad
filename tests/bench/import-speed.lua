-- import-speed.lua - a CPU-bound Lua program for tests/bench/import-speed.py
--
-- SPDX-License-Identifier: GPL-3.0-or-later
--
-- Recursion, a sieve, string formatting and a table sort: the interpreter's
-- dispatch loop and its table and string code, as issue 15's 1.2M-sample
-- perf.data of a Lua interpreter had. Usage: lua5.4 import-speed.lua ROUNDS
local n = tonumber(arg[1]) or 10
local function fib(k) if k < 2 then return k end return fib(k-1) + fib(k-2) end
local function sieve(m)
  local t = {}
  for i = 2, m do t[i] = true end
  for i = 2, m do if t[i] then for j = i*i, m, i do t[j] = false end end end
  local c = 0 for i = 2, m do if t[i] then c = c + 1 end end
  return c
end
local function words(m)
  local h = {}
  for i = 1, m do local w = string.format("w%d", i % 997) h[w] = (h[w] or 0) + 1 end
  local k = {} for w in pairs(h) do k[#k+1] = w end
  table.sort(k)
  return #k
end
local s = 0
for r = 1, n do s = s + fib(25) + sieve(200000) + words(100000) end
print(s)
