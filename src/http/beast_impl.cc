// Compiles Asio's and Beast's implementation once, instead of in every
// translation unit that includes them (BOOST_*_SEPARATE_COMPILATION): a large
// saving in build time on a 2-core machine.
#include "http/asio.h"

#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
