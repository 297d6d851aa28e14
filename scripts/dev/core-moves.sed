# Include paths of core/vtx files moved by issue 25 (core folders): sed -i -f scripts/dev/core-moves.sed FILES
# Matches only quoted or angle-bracket include paths ("vtx/X.hpp", <vtx/X.hpp>).
s#\([<"]\)vtx/backend/#\1vtx/file/backend/#g
s#\([<"]\)vtx/AppendArray\.hpp\([>"]\)#\1vtx/base/AppendArray.hpp\2#g
s#\([<"]\)vtx/LargeAlloc\.hpp\([>"]\)#\1vtx/base/LargeAlloc.hpp\2#g
s#\([<"]\)vtx/LibraryVersions\.hpp\([>"]\)#\1vtx/base/LibraryVersions.hpp\2#g
s#\([<"]\)vtx/Status\.hpp\([>"]\)#\1vtx/base/Status.hpp\2#g
s#\([<"]\)vtx/Types\.hpp\([>"]\)#\1vtx/base/Types.hpp\2#g
s#\([<"]\)vtx/ByteReadings\.hpp\([>"]\)#\1vtx/model/ByteReadings.hpp\2#g
s#\([<"]\)vtx/DecodedChunk\.hpp\([>"]\)#\1vtx/model/DecodedChunk.hpp\2#g
s#\([<"]\)vtx/FrameView\.hpp\([>"]\)#\1vtx/model/FrameView.hpp\2#g
s#\([<"]\)vtx/PropertyPath\.hpp\([>"]\)#\1vtx/model/PropertyPath.hpp\2#g
s#\([<"]\)vtx/PropertyTree\.hpp\([>"]\)#\1vtx/model/PropertyTree.hpp\2#g
s#\([<"]\)vtx/PropertyVisit\.hpp\([>"]\)#\1vtx/model/PropertyVisit.hpp\2#g
s#\([<"]\)vtx/ReplayData\.hpp\([>"]\)#\1vtx/model/ReplayData.hpp\2#g
s#\([<"]\)vtx/Schema\.hpp\([>"]\)#\1vtx/model/Schema.hpp\2#g
s#\([<"]\)vtx/UnnamedData\.hpp\([>"]\)#\1vtx/model/UnnamedData.hpp\2#g
s#\([<"]\)vtx/Value\.hpp\([>"]\)#\1vtx/model/Value.hpp\2#g
s#\([<"]\)vtx/BlobCodec\.hpp\([>"]\)#\1vtx/file/BlobCodec.hpp\2#g
s#\([<"]\)vtx/ByteSource\.hpp\([>"]\)#\1vtx/file/ByteSource.hpp\2#g
s#\([<"]\)vtx/ReplayFile\.hpp\([>"]\)#\1vtx/file/ReplayFile.hpp\2#g
s#\([<"]\)vtx/ReplayInfo\.hpp\([>"]\)#\1vtx/file/ReplayInfo.hpp\2#g
s#\([<"]\)vtx/ReplayWriter\.hpp\([>"]\)#\1vtx/file/ReplayWriter.hpp\2#g
s#\([<"]\)vtx/ContentHash\.hpp\([>"]\)#\1vtx/integrity/ContentHash.hpp\2#g
s#\([<"]\)vtx/FrameIntegrity\.hpp\([>"]\)#\1vtx/integrity/FrameIntegrity.hpp\2#g
s#\([<"]\)vtx/HashTrust\.hpp\([>"]\)#\1vtx/integrity/HashTrust.hpp\2#g
s#\([<"]\)vtx/Validate\.hpp\([>"]\)#\1vtx/integrity/Validate.hpp\2#g
s#\([<"]\)vtx/JsonExport\.hpp\([>"]\)#\1vtx/export/JsonExport.hpp\2#g
