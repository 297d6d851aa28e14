// SPDX-License-Identifier: MIT
// Compiled only to build the tests' precompiled headers (tests/CMakeLists.txt, vtxtestpch-*):
// a carrier with a test's flags, so every test can reuse them. It defines nothing.
