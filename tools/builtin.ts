// Importing this module registers the builtin tools in TOOL_REGISTRY.
import './calculator';
import './current-time';
import './storage';
import './doc-parser';
import './retrieval';
import './code-interpreter';
import './web-search';
import './web-extractor';
