"""Paste filter of the local test cloud: the token's project in the request log.

tests/cloud/manila-cloud copies this file into the cloud's state directory
and places the filter right after keystonemiddleware's ``authtoken`` in the
Manila API pipeline.  By then authtoken has validated the token and removed
any identity headers the client sent, so ``X-Project-Id`` is the project of
the token.  The filter hands it to uwsgi as the log variable ``project``,
which the request log prints as the last field of the line.  Requests that
never get here (the versions document, a 401 from authtoken) log ``-``:
uwsgi prints that for a log variable nobody set.

Standard library only; without uwsgi (imported elsewhere) it does nothing.
"""

try:
    import uwsgi     # only importable inside a uwsgi worker
except ImportError:
    uwsgi = None


def filter_factory(global_conf, **local_conf):     # pylint: disable=unused-argument
    """Paste's filter factory: wrap the next application of the pipeline."""
    def make_filter(app):
        def request_project(environ, start_response):
            project = environ.get('HTTP_X_PROJECT_ID')
            if uwsgi is not None and project:
                uwsgi.set_logvar('project', project)
            return app(environ, start_response)
        return request_project
    return make_filter
