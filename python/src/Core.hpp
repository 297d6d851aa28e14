#pragma once
// Every core header the Python module uses, in one place (when core headers move, only this
// file changes).

#include "vtx/FrameIntegrity.hpp"
#include "vtx/JsonExport.hpp"
#include "vtx/PropertyPath.hpp"
#include "vtx/PropertyVisit.hpp"
#include "vtx/ReplayFile.hpp"
#include "vtx/UnnamedData.hpp"
#include "vtx/Validate.hpp"
#include "vtx/Value.hpp"
#include "vtx/analysis/ReplayWalk.hpp"
#include "vtx/cache/ChunkCache.hpp"
#include "vtx/diff/DiffExport.hpp"
#include "vtx/diff/Diverge.hpp"
#include "vtx/diff/FrameDiff.hpp"
#include "vtx/query/Expression.hpp"
#include "vtx/query/QueryScan.hpp"
