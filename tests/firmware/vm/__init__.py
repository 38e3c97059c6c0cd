"""The reference firmware on MicroPython's WebAssembly VM under Node (vm.mjs, vmboard.py, vm_board.py)."""
