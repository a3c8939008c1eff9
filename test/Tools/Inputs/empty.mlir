// An empty module (inputs of tool tests).
module {
}
