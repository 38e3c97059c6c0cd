"""What the two web servers (the dealer screen's and the pit monitor's) share: who they answer, how
many event streams they hold open, and how an event is written on a stream."""
