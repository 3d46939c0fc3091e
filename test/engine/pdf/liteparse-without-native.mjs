// Stands in for @llamaindex/liteparse on a platform without a prebuilt native module: the package's entry
// throws this on import (its loadNative, dist/lib.js), so the engine takes its built-in pdfjs path.
throw new Error('Failed to load native module for linux-x64. Ensure the correct optional dependency is installed.');
