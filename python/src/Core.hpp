// SPDX-License-Identifier: MIT
#pragma once
// Every core header the Python module uses, in one place (when core headers move, only this
// file changes).

#include "vtx/analysis/ReplayWalk.hpp"
#include "vtx/cache/ChunkCache.hpp"
#include "vtx/diff/DiffExport.hpp"
#include "vtx/diff/Diverge.hpp"
#include "vtx/diff/FrameDiff.hpp"
#include "vtx/export/JsonExport.hpp"
#include "vtx/file/ReplayFile.hpp"
#include "vtx/integrity/FrameIntegrity.hpp"
#include "vtx/integrity/Validate.hpp"
#include "vtx/model/PropertyPath.hpp"
#include "vtx/model/PropertyVisit.hpp"
#include "vtx/model/UnnamedData.hpp"
#include "vtx/model/Value.hpp"
#include "vtx/query/Expression.hpp"
#include "vtx/query/QueryScan.hpp"
