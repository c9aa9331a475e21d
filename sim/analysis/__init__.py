"""After a run: hindsight (each driver's best month in hindsight, a bound) and metrics."""
