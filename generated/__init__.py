"""Generated rules engines, one package per edition. Built by `aventuriers build`."""
